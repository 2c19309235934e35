import type { TimeUnit } from '@nl2p/query-plan';
import { numberOf, singular } from '../../text';
import { pushGroup, type GroupParser, type GroupScan } from './group-scan';
import { isPlural, unitOf } from './units';
import { wordTable } from '../../word-table';

const ADVERBS: Record<string, TimeUnit> = wordTable({
  hourly: 'hour',
  daily: 'day',
  nightly: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
  annually: 'year',
  annual: 'year',
});
const PERIOD_NOUNS = new Set(['bucket', 'window', 'interval', 'period', 'bin', 'slot', 'chunk', 'block', 'step']);

/**
 * Periods: `10-minute buckets`, `every 10 seconds`, `per 15 minutes`, `every 100 readings` (a
 * count window on streams), `per hour`, `each day`, `by month` (not `in hours`), `daily`,
 * `which day` (grouped by the unit, asked for its best one).
 */
export const periods: GroupParser = (scan) => {
  const { tokens, streaming } = scan;
  const window = streaming ? 'tumbling' : null;
  for (let i = 0; i < tokens.length; i++) {
    if (scan.taken.has(i)) continue;
    const w = tokens[i]?.norm ?? '';
    // N-unit buckets / windows / intervals (also "in 10 minute buckets")
    const n = numberOf(tokens[i]);
    const unit = n !== null ? unitOf(tokens[i + 1], tokens[i + 1]?.joined) : null;
    if (n !== null && unit && PERIOD_NOUNS.has(singular(tokens[i + 2]?.norm ?? ''))) {
      pushGroup(scan, i, i + 3, { unit, size: n, window, hop: null });
      continue;
    }
    if ((w === 'every' || w === 'per' || w === 'each' || w === 'by' || w === 'in') && periodCue(scan, i, w)) continue;
    const adverb = ADVERBS[w];
    if (adverb) {
      pushGroup(scan, i, i + 1, { unit: adverb, size: 1, window, hop: null });
      continue;
    }
    // which day / what hour: grouping by the unit, asked for its best one
    const asked = unitOf(tokens[i + 1]);
    if ((w === 'which' || w === 'what') && asked && !isPlural(tokens[i + 1]))
      pushGroup(scan, i + 1, i + 2, { unit: asked, size: 1, window, hop: null });
  }
};

/** After `every`/`per`/`each`/`by`/`in` at `i`: whether a period follows (and was added). */
function periodCue(scan: GroupScan, i: number, w: string): boolean {
  const { tokens, streaming } = scan;
  const window = streaming ? 'tumbling' : null;
  // every N units / per 15 minutes
  const n2 = numberOf(tokens[i + 1]);
  const unit2 = unitOf(tokens[i + 2], tokens[i + 2]?.joined);
  if (n2 !== null && unit2 && w !== 'in' && w !== 'by') {
    pushGroup(scan, i, i + 3, { unit: unit2, size: n2, window, hop: null });
    return true;
  }
  // every N readings (stream): a count window
  if (n2 !== null && streaming && w === 'every' && tokens[i + 2]?.kind === 'word' && !unit2) {
    pushGroup(scan, i, i + 3, { unit: 'second', size: n2, window: 'count', hop: null });
    return true;
  }
  // per hour / each day / by month (not "in hours")
  const unit1 = unitOf(tokens[i + 1]);
  if (unit1 && w !== 'in' && !isPlural(tokens[i + 1])) {
    pushGroup(scan, i, i + 2, { unit: unit1, size: 1, window, hop: null });
    return true;
  }
  return false;
}
