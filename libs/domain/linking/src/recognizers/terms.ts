import { findTerms } from '../match';
import { cueTokens, range, slice, type LinkRule } from './rule';

/**
 * Terms: the phrases naming tables, columns and values, over the tokens no earlier recognizer
 * owns (a date's number is no value, `average` no column unless it names one outright).
 */
export const terms: LinkRule = {
  name: 'terms',
  apply(s) {
    const blocked = new Set([...s.taken, ...cueTokens(s), ...s.distinctAt]);
    s.terms = findTerms(s.tokens, s.index, blocked).map((t) => ({ ...t, text: slice(s, t.start, t.end) }));
    for (const t of s.terms) for (const k of range(t.start, t.end)) s.termAt.set(k, t);
  },
};
