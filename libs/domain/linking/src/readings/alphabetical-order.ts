import type { ValueExpr } from '@nl2p/query-plan';
import { doubt } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * `alphabetically`, `in alphabetical order` with no column said: the rows sorted on the first text
 * column shown (the name the person asked for). Runs after projection, which decides what is shown;
 * a column said (`ordered by name alphabetically`) was already taken by order-limit.
 */
export const alphabeticalOrder: ReadingRule = {
  name: 'alphabetical-order',
  apply(s) {
    const said = s.links.orders.find((o) => o.key && 'text' in o.key);
    if (!said || s.orderBy.length) return;
    const shown = s.select.flatMap((p) => (p.kind === 'value' && isText(s, p.expr) ? [p.expr] : []));
    const first = shown[0];
    if (!first) return doubt(s, `nothing to sort "${said.text}" on`);
    s.orderBy.push({ key: { kind: 'value', expr: first }, direction: said.direction ?? 'asc' });
  },
};

function isText(s: ReadingState, e: ValueExpr): boolean {
  if (e.kind !== 'column') return false;
  const table = e.ref.table ?? s.source;
  const info = s.index.tables.find((t) => t.name === table)?.columns.find((c) => c.column === e.ref.column);
  return !!info?.text && !e.ref.path?.length;
}
