import type { VelofluxRule } from '../rule';

/** EXISTS and a SELECT nested anywhere but the one accepted FROM shape (see from-source). */
export const subqueries: VelofluxRule = {
  id: 'subqueries',
  check(q, out) {
    for (const { index, word } of q.keywords) {
      if (word === 'exists') {
        out.error(
          'EXISTS and subqueries are not supported by veloFlux; express the condition on the stream columns directly',
          index,
        );
      } else if (word === 'select' && (q.s.depth[index] ?? 0) > 0) {
        out.error(
          'subqueries are not supported by veloFlux; write one SELECT over the stream (use a window and HAVING for conditions on aggregates)',
          index,
        );
      }
    }
  },
};
