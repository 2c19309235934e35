import { findTimeGroups } from './time';
import { take, type LinkRule } from './rule';

/**
 * Time grouping: `per hour`, `daily`, `every 10 seconds`, `10-minute buckets`, `a sliding window
 * of the last 30 seconds` (a window on streams, a bucket on SQL targets).
 */
export const timeGroups: LinkRule = {
  name: 'time-groups',
  apply(s) {
    s.timeGroups = findTimeGroups(s.tokens, s.index.streaming, s.text).map((f) => {
      take(s, f.tokens);
      return f.link;
    });
  },
};
