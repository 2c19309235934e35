import type { VelofluxRule } from '../rule';

const PATTERN_WORDS = new Set(['like', 'ilike', 'similar']);

/** LIKE / ILIKE / SIMILAR TO: veloFlux matches with regexp_matches, startswith, endswith. */
export const patternMatching: VelofluxRule = {
  id: 'pattern-matching',
  check(q, out) {
    for (const { index, word } of q.keywords) {
      if (!PATTERN_WORDS.has(word)) continue;
      out.error(
        `${word.toUpperCase()} is not supported by veloFlux; use regexp_matches(x, 'pattern'), startswith(x, 'prefix') or endswith(x, 'suffix')`,
        index,
      );
    }
  },
};
