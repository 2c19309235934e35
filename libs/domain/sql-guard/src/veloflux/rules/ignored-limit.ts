import type { VelofluxRule } from '../rule';

/** LIMIT / OFFSET / FETCH parse, and the pipeline ignores them: a warning, not an error. */
export const ignoredLimit: VelofluxRule = {
  id: 'ignored-limit',
  check(q, out) {
    for (const { index, word } of q.clauseWords) {
      if (word !== 'limit' && word !== 'offset' && word !== 'fetch') continue;
      out.warn(
        `${(q.toks[index]?.text ?? word).toUpperCase()} is ignored by veloFlux (the pipeline emits every row or window result); remove it`,
        index,
      );
    }
  },
};
