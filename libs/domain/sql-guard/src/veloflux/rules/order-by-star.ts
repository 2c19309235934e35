import { isSymbol, isWord, type Token } from '../../lexer';
import type { VelofluxRule } from '../rule';

/** The token before an item of a comma list: its comma or the clause's keyword (`BY`). */
function isItemStart(prev: Token | undefined): boolean {
  return isSymbol(prev, ',') || isWord(prev, 'by');
}

/**
 * `ORDER BY *` and `ORDER BY s.*` do not parse (live engine: "Expected an expression:, found: *",
 * "Expected an identifier or a '*' after '.', found: *").
 */
export const orderByStar: VelofluxRule = {
  id: 'order-by-star',
  check(q, out) {
    const { toks } = q;
    for (let i = 0; i < toks.length; i++) {
      if (!q.walked(i) || q.clauseAt[i] !== 'order' || q.s.depth[i] !== 0 || !isSymbol(toks[i], '*')) continue;
      const prev = toks[i - 1];
      const dotted = isSymbol(prev, '.');
      if (!dotted && !isItemStart(prev)) continue;
      const what = dotted ? `${prev && toks[i - 2] ? toks[i - 2]?.text : 'stream'}.*` : '*';
      out.error(
        `ORDER BY cannot sort by ${what} in veloFlux (the parser expects a column or an expression there); order by named columns or output aliases`,
        i,
      );
    }
  },
};
