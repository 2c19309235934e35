import { isSymbol, isWord } from '../../lexer';
import type { VelofluxRule } from '../rule';

/**
 * `agg(DISTINCT x)`: count(DISTINCT x) is accepted when the pipeline is created (recorded:
 * probe_count_distinct) but its window aggregation fails as soon as the pipeline runs, silently for
 * the person (live engine: "DISTINCT aggregates are not supported yet"; libs/testing/src/live-engine.ts).
 */
export const distinctAggregates: VelofluxRule = {
  id: 'distinct-aggregates',
  check(q, out) {
    const { toks } = q;
    for (const { index: i, word } of q.keywords) {
      if (word !== 'distinct' || !isSymbol(toks[i - 1], '(') || toks[i - 2]?.kind !== 'word') continue;
      const fn = toks[i - 2]?.text ?? 'a function';
      out.error(
        isWord(toks[i - 2], 'count')
          ? 'count(DISTINCT x) is accepted by veloFlux when the pipeline is created, but its aggregation fails when the pipeline runs (DISTINCT aggregates are not supported yet); use ndv(x) for a distinct count'
          : `DISTINCT inside ${fn}(…) is not supported by veloFlux; use ndv(x) for a distinct count or deduplicate(x) for distinct values`,
        i,
      );
    }
  },
};
