import { isSymbol, isWord } from '../../lexer';
import type { VelofluxRule } from '../rule';

/**
 * `agg(x) FILTER (WHERE c)` parses, and the running pipeline ignores the filter: the aggregate
 * covers every row (live engine; libs/testing/src/live-engine.ts).
 */
export const aggregateFilters: VelofluxRule = {
  id: 'aggregate-filters',
  check(q, out) {
    const { toks, s } = q;
    for (const { index: i, word } of q.keywords) {
      if (word !== 'filter') continue;
      if (!isSymbol(toks[i - 1], ')') || !isSymbol(toks[i + 1], '(') || !isWord(toks[i + 2], 'where')) continue;
      const open = s.partner[i - 1] ?? -1;
      const fn = toks[open - 1]?.text.toLowerCase() ?? '';
      if (!q.catalog.aggregates.has(fn) && fn !== 'count') continue;
      out.error(
        `veloFlux ignores FILTER (WHERE …) on ${fn}() when the pipeline runs (the aggregate still covers every row); write the condition inside the aggregate instead: ${fn}(CASE WHEN <condition> THEN ${fn === 'count' ? '1' : 'x'} END)`,
        i,
      );
    }
  },
};
