import type { StreamWindow } from '@nl2p/query-plan';
import type { TimeGroupLink } from '../types';
import { doubt, ref } from './lookup';
import type { ReadingRule } from './state';

/**
 * The time grouping: a window on a stream (tumbling unless said sliding, hopping or by count), a
 * bucket on the time column on SQL targets. Two different units said is a doubt.
 */
export const timeBuckets: ReadingRule = {
  name: 'time-buckets',
  apply(s) {
    const L = s.links;
    const tg = L.timeGroups[0];
    if (L.timeGroups.length > 1 && L.timeGroups.some((g) => g.unit !== tg?.unit)) doubt(s, 'several time groupings');
    if (!tg) return;
    if (s.schema.streaming) s.window = windowOf(tg);
    else if (s.timeColumn)
      s.timeBucket = { column: ref(s, s.timeColumn), unit: tg.unit, size: tg.size, as_date: tg.asDate };
    else doubt(s, `no time column to group "${tg.text}" by`);
  },
};

function windowOf(tg: TimeGroupLink): StreamWindow {
  if (tg.window === 'count') return { kind: 'count', size: tg.size };
  if (tg.window === 'sliding') return { kind: 'sliding', unit: tg.unit, size: tg.size, lookahead: 0 };
  if (tg.window === 'hopping') return { kind: 'hopping', unit: tg.unit, size: tg.size, hop: tg.hop ?? tg.size };
  return { kind: 'tumbling', unit: tg.unit, size: tg.size };
}
