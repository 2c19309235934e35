import type { VelofluxRule } from '../rule';

/** A WINDOW or QUALIFY clause (a column may still be called `window`; the analysis tells them apart). */
export const windowClauses: VelofluxRule = {
  id: 'window-clauses',
  check(q, out) {
    for (const { index, word } of q.clauseWords) {
      if (word !== 'window' && word !== 'qualify') continue;
      out.error(
        `${word.toUpperCase()} clauses are not supported by veloFlux; windows go inside GROUP BY, e.g. GROUP BY tumblingwindow('ss', 10)`,
        index,
      );
    }
  },
};
