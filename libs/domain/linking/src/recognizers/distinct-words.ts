import { norm, type LinkRule } from './rule';

const DISTINCT_WORDS = new Set(['distinct', 'different', 'unique']);

/**
 * Distinct markers: `distinct`, `different`, `unique` (a distinct count or distinct rows, decided
 * with the aggregates), and `each … once`, `no duplicates`, which ask for distinct rows.
 */
export const distinctWords: LinkRule = {
  name: 'distinct-words',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (DISTINCT_WORDS.has(norm(s, i))) s.distinctAt.add(i);
      if (norm(s, i) === 'once' && s.tokens.slice(Math.max(0, i - 4), i).some((t) => t.norm === 'each'))
        s.distinct = true;
      if (norm(s, i) === 'duplicates' || norm(s, i) === 'duplicate') s.distinct = true;
    }
  },
};
