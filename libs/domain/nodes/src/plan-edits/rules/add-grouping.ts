import type { EditRule } from '../edit';
import { columnNamed, withJoin } from '../clause-words';
import { sameColumn } from '../plan-walk';

/**
 * "also per device", "by site too", "group by model": the column named joins the grouping and is
 * shown beside the other group columns. Only a plan that aggregates can be grouped.
 *
 * Examples: `also per device` on avg(temperature) → … device_id, avg(temperature) GROUP BY device_id.
 */
export const addGrouping: EditRule = {
  name: 'add-grouping',
  apply(plan, clause, ctx) {
    const group = clause.links.groups[0];
    if (!group || clause.links.groups.length > 1) return null;
    if (!plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure')) return null;
    const term = clause.links.terms.find((t) => t.id === group.term);
    const named = term && columnNamed(plan, term, ctx);
    if (!named) return null;
    const joined = named.joinable ? withJoin(plan, named.table, ctx) : plan;
    if (!joined) return null;
    if (joined.group_by.some((g) => sameColumn(joined, g, named.ref))) {
      return { plan, change: `it is grouped by ${named.column} already; nothing changed` };
    }
    // The new group column goes after those shown already, before the aggregates.
    const firstAggregate = joined.select.findIndex((p) => p.kind === 'aggregate' || p.kind === 'measure');
    const select = [...joined.select];
    select.splice(firstAggregate, 0, { kind: 'value', expr: { kind: 'column', ref: named.ref }, alias: null });
    return {
      plan: { ...joined, select, group_by: [...joined.group_by, named.ref] },
      change: `also grouped by ${named.column}`,
    };
  },
};
