import { isSymbol, isWord } from '../../lexer';
import type { VelofluxRule } from '../rule';

/**
 * `BETWEEN` and `IN (…)` value lists: the engine accepts both at create and explain, then the
 * running filter fails on every row ("Type mismatch: expected Int64, Float64, or Uint8, got
 * Bool(true) and Bool(false)") and the pipeline emits nothing while it reports itself running.
 * The comparisons they stand for run. `IN (SELECT …)` is a subquery, left to that rule.
 */
export const rangeAndListTests: VelofluxRule = {
  id: 'range-and-list-tests',
  check(q, out) {
    const { toks } = q;
    for (const { index: i, word } of q.keywords) {
      const negated = isWord(toks[i - 1], 'not');
      const not = negated ? 'NOT ' : '';
      if (word === 'between') {
        out.error(
          `${not}BETWEEN fails on every row when a veloFlux pipeline runs; write ${negated ? 'x < a OR x > b' : 'x >= a AND x <= b'} instead`,
          i,
        );
      } else if (word === 'in' && isSymbol(toks[i + 1], '(') && !isWord(toks[i + 2], 'select')) {
        out.error(
          `${not}IN (…) fails on every row when a veloFlux pipeline runs; write ${negated ? "x != 'a' AND x != 'b'" : "x = 'a' OR x = 'b'"} instead`,
          i,
        );
      }
    }
  },
};
