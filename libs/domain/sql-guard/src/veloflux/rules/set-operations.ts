import type { VelofluxRule } from '../rule';

/** UNION / INTERSECT / EXCEPT: a pipeline is one SELECT over one stream. */
export const setOperations: VelofluxRule = {
  id: 'set-operations',
  check(q, out) {
    for (const { index, word } of q.clauseWords) {
      if (word !== 'union' && word !== 'intersect' && word !== 'except') continue;
      out.error(
        `${word.toUpperCase()} is not supported by veloFlux: a pipeline is one simple SELECT over one stream; ` +
          'write a single SELECT (combine conditions with OR in WHERE instead)',
        index,
      );
    }
  },
};
