import type { VelofluxRule } from '../rule';

/** NULLS FIRST / NULLS LAST in ORDER BY. */
export const nullsOrdering: VelofluxRule = {
  id: 'nulls-ordering',
  check(q, out) {
    for (const { index, word } of q.keywords) {
      if (word === 'nulls')
        out.error('NULLS FIRST / NULLS LAST is not supported by veloFlux; remove it from ORDER BY', index);
    }
  },
};
