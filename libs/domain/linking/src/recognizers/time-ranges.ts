import { findTimeRanges } from './time';
import { take, type LinkRule } from './rule';

/** A date range, half-open: `in February 2024`, `last 7 days`, `since March`, `between … and …`. */
export const timeRanges: LinkRule = {
  name: 'time-ranges',
  apply(s) {
    s.timeRanges = findTimeRanges(s.tokens, s.text, s.now, s.taken).map((f) => {
      take(s, f.tokens);
      return f.link;
    });
  },
};
