import type { VelofluxRule } from '../rule';

const JSON_OPERATORS = new Set(['->>', '#>', '#>>', '@>', '<@', '?']);

/** PostgreSQL's JSON operators: veloFlux reads struct fields with `->` only. */
export const jsonOperators: VelofluxRule = {
  id: 'json-operators',
  check(q, out) {
    for (const i of q.operators) {
      const op = q.toks[i]?.text ?? '';
      if (!JSON_OPERATORS.has(op)) continue;
      out.error(
        `the JSON operator '${op}' is not supported by veloFlux; read struct fields with -> and parentheses, e.g. (payload->field)`,
        i,
      );
    }
  },
};
