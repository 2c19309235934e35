import type { Span } from '../types';
import { cueTokens, range, type LinkRule } from './rule';

/** Every token some link or cue covers: what is left is filler, unlinked or unread. */
export const coverage: LinkRule = {
  name: 'coverage',
  apply(s) {
    const spans: Span[][] = [
      s.terms,
      s.arithmetic,
      s.comparisons,
      s.setComparisons,
      s.quantifiedComparisons,
      s.groups,
      s.orders,
      s.textMatches,
      s.ratios.flatMap((r) => r.cues),
      s.weekDays,
    ];
    for (const k of [...s.taken, ...cueTokens(s), ...s.distinctAt]) s.covered.add(k);
    for (const list of spans) for (const x of list) for (const k of range(x.start, x.end)) s.covered.add(k);
  },
};
