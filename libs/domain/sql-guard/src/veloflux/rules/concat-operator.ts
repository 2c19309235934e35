import type { VelofluxRule } from '../rule';

/** `a || b`: veloFlux has concat(a, b) instead. */
export const concatOperator: VelofluxRule = {
  id: 'concat-operator',
  check(q, out) {
    for (const i of q.operators) {
      if (q.toks[i]?.text !== '||') continue;
      out.error(
        'the || operator is not supported by veloFlux; use concat(a, b) (exactly two arguments; nest concat for more)',
        i,
      );
    }
  },
};
