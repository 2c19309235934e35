import type { ValueExpr } from '@nl2p/query-plan';
import { doubt, ref } from './lookup';
import type { ReadingRule } from './state';

/** Each date range as conditions on the time column (`>= from`, `< to`); a stream has no range to filter on. */
export const timeRanges: ReadingRule = {
  name: 'time-ranges',
  apply(s) {
    for (const range of s.links.timeRanges) {
      if (s.schema.streaming) {
        doubt(s, 'a stream has no date range to filter on');
        continue;
      }
      if (!s.timeColumn) {
        doubt(s, `no time column for "${range.text}"`);
        continue;
      }
      const left: ValueExpr = { kind: 'column', ref: ref(s, s.timeColumn) };
      if (range.from)
        s.conditions.push({ kind: 'compare', left, op: '>=', value: { kind: 'timestamp', value: range.from } });
      if (range.to)
        s.conditions.push({ kind: 'compare', left, op: '<', value: { kind: 'timestamp', value: range.to } });
    }
  },
};
