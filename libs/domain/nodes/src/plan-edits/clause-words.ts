import type { ColumnRef, QueryPlan } from '@nl2p/query-plan';
import { joinKeyOf, type LinkSchema, type TermLink } from '@nl2p/linking';
import { refIn, tablesIn } from './plan-walk';
import type { Clause } from './edit';

/** The numbers a clause says (`35`, `2.5`), not those inside a value (`dev-01`). */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}_-])(-?\d+(?:\.\d+)?)(?![\p{L}\p{N}_-])/gu)].map((m) => Number(m[1]));
}

/** A column a term names, in a table the plan reads (best first), else in a table it can join. */
export function columnNamed(
  plan: QueryPlan,
  term: TermLink,
  schema: LinkSchema,
): { ref: ColumnRef; table: string; column: string; joinable: boolean } | null {
  const inPlan = tablesIn(plan);
  const columns = term.columns.filter((c) => !c.path?.length && c.match !== 'generic');
  const own = columns.find((c) => inPlan.includes(c.table));
  if (own) return { ref: refIn(plan, own.table, own.column), table: own.table, column: own.column, joinable: false };
  const joined = columns.find((c) => !schema.streaming && joinKeyOf(schema.tables, plan.source, c.table));
  return joined
    ? { ref: refIn(plan, joined.table, joined.column), table: joined.table, column: joined.column, joinable: true }
    : null;
}

/** The first column the clause names that `plan` can read. */
export function firstColumn(plan: QueryPlan, clause: Clause, schema: LinkSchema) {
  for (const t of clause.links.terms) {
    const c = columnNamed(plan, t, schema);
    if (c) return c;
  }
  return null;
}

/** `plan` with a join to `table` on the key the two share (no change when it is joined already). */
export function withJoin(plan: QueryPlan, table: string, schema: LinkSchema): QueryPlan | null {
  if (tablesIn(plan).includes(table)) return plan;
  const key = joinKeyOf(schema.tables, plan.source, table);
  if (!key) return null;
  const on = [{ left: { table: plan.source, column: key.left }, right: { table, column: key.right } }];
  return { ...plan, joins: [...plan.joins, { table, kind: 'inner', on }] };
}
