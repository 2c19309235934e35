import type { ColumnRef, Condition, QueryPlan, ValueExpr } from '@nl2p/query-plan';

// Small reads and writes of a plan the edit rules share.

/** The conditions a WHERE holds together (its top-level AND), in order. */
export function conjuncts(where: Condition | null): Condition[] {
  if (!where) return [];
  return where.kind === 'and' ? where.conditions.flatMap((c) => conjuncts(c)) : [where];
}

/** The conditions back as one WHERE (null when none). */
export function allOf(conditions: readonly Condition[]): Condition | null {
  if (!conditions.length) return null;
  return conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions: [...conditions] };
}

/** The table a column reference reads from, in `plan`. */
export function tableOf(plan: QueryPlan, ref: ColumnRef): string {
  return ref.table ?? plan.source;
}

/** Whether two references name the same column of `plan`. */
export function sameColumn(plan: QueryPlan, a: ColumnRef, b: ColumnRef): boolean {
  return (
    tableOf(plan, a) === tableOf(plan, b) && a.column === b.column && (a.path ?? []).join() === (b.path ?? []).join()
  );
}

/** The column a condition is about, when it is about one. */
export function columnOfCondition(c: Condition): ColumnRef | null {
  switch (c.kind) {
    case 'compare':
      return c.left.kind === 'column' ? c.left.ref : null;
    case 'in':
    case 'between':
    case 'text':
    case 'null':
      return c.column;
    case 'not':
      return columnOfCondition(c.condition);
    case 'in_subquery':
    case 'compare_subquery':
      return c.left.kind === 'column' ? c.left.ref : null;
    case 'and':
    case 'or':
    case 'exists':
      return null;
  }
}

/** Whether an expression reads `ref`. */
export function exprReads(plan: QueryPlan, e: ValueExpr | null, ref: ColumnRef): boolean {
  if (!e) return false;
  if (e.kind === 'column') return sameColumn(plan, e.ref, ref);
  if (e.kind === 'arith') return exprReads(plan, e.left, ref) || exprReads(plan, e.right, ref);
  if (e.kind === 'elapsed') return sameColumn(plan, e.from, ref) || sameColumn(plan, e.to, ref);
  return false;
}

/** A reference to `column` of `table` as `plan` spells it (no table for its source). */
export function refIn(plan: QueryPlan, table: string, column: string): ColumnRef {
  return table === plan.source ? { column } : { table, column };
}

/** The tables `plan` reads: its source and the joined ones. */
export function tablesIn(plan: QueryPlan): string[] {
  return [plan.source, ...plan.joins.map((j) => j.table)];
}
