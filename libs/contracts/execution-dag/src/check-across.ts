import type { Column } from '@nl2p/envelope';
import { checkPlan, classifyType, type PlanCheck, type QueryPlan } from '@nl2p/query-plan';
import { sourceOf, splitQualified } from './source-names';

/**
 * The catalog check for a plan over source-qualified tables. One thing differs from a plan on one
 * database: a join key may be an integer in one source and text in another. That join is not a
 * type error here — the combine compares the two as one type by rule and says so — so for the
 * check only, both columns of such a cross-source pair are seen as text.
 */
export function checkAcrossSources(plan: QueryPlan, tables: Readonly<Record<string, readonly Column[]>>): PlanCheck {
  const view: Record<string, Column[]> = Object.fromEntries(Object.entries(tables).map(([t, c]) => [t, [...c]]));
  for (const join of plan.joins) {
    for (const pair of join.on) {
      const left = pair.left.table ?? plan.source;
      const right = pair.right.table ?? join.table;
      if (!splitQualified(left) || !splitQualified(right) || sourceOf(left) === sourceOf(right)) continue;
      const l = view[left]?.find((c) => c.name === pair.left.column);
      const r = view[right]?.find((c) => c.name === pair.right.column);
      if (!l || !r || classifyType(l.data_type) === classifyType(r.data_type)) continue;
      for (const [table, column] of [
        [left, l],
        [right, r],
      ] as const) {
        view[table] = (view[table] ?? []).map((c) => (c === column ? { ...c, data_type: 'varchar' } : c));
      }
    }
  }
  return checkPlan(plan, view);
}
