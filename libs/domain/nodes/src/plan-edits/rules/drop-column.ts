import { measureParts } from '@nl2p/query-plan';
import type { EditRule } from '../edit';
import { firstColumn } from '../clause-words';
import { allOf, columnOfCondition, conjuncts, exprReads, sameColumn } from '../plan-walk';

const DROPPING = /\b(drop|remove|hide|omit|leave out|get rid of|without|(?:don'?t|do not|no longer) show|no more)\b/i;

/**
 * "drop the humidity", "remove the temperature filter", "hide device": the output columns that
 * read the column named go (and the grouping on it); when none is shown, the conditions on it go.
 * A plan is never left with nothing to show.
 *
 * Examples: `drop the humidity` on avg(temperature), avg(humidity) → avg(temperature) only;
 * `remove the temperature filter` → the WHERE on temperature goes.
 */
export const dropColumn: EditRule = {
  name: 'drop-column',
  apply(plan, clause, ctx) {
    if (!DROPPING.test(clause.text) || clause.links.terms.some((t) => t.values.length)) return null;
    const named = firstColumn(plan, clause, ctx);
    if (!named || named.joinable) return null;
    const reads = (p: (typeof plan.select)[number]) =>
      p.kind === 'value'
        ? exprReads(plan, p.expr, named.ref)
        : p.kind === 'aggregate'
          ? exprReads(plan, p.aggregate.arg, named.ref)
          : p.kind === 'measure' && measureParts(p.expr).some((m) => exprReads(plan, m.aggregate.arg, named.ref));
    const filter = /\b(filter|condition|threshold|where)\b/i.test(clause.text);
    if (!filter && plan.select.some(reads)) {
      const select = plan.select.filter((p) => !reads(p));
      if (!select.length) return null;
      const group_by = plan.group_by.filter((g) => !sameColumn(plan, g, named.ref));
      const order_by = plan.order_by.filter(
        (o) =>
          o.key.kind === 'output' ||
          !(o.key.kind === 'value'
            ? exprReads(plan, o.key.expr, named.ref)
            : exprReads(plan, o.key.aggregate.arg, named.ref)),
      );
      return {
        plan: { ...plan, select, group_by, order_by: order_by.filter((o) => o.key.kind !== 'output') },
        change: `${named.column} is no longer shown`,
      };
    }
    const conditions = conjuncts(plan.where);
    const kept = conditions.filter((c) => {
      const col = columnOfCondition(c);
      return !col || !sameColumn(plan, col, named.ref);
    });
    if (kept.length === conditions.length) {
      return { plan, change: `${named.column} is neither shown nor filtered on; nothing changed` };
    }
    return { plan: { ...plan, where: allOf(kept) }, change: `the condition on ${named.column} is removed` };
  },
};
