import type { ColumnRef, OrderKey, QueryPlan } from '@nl2p/query-plan';
import type { EditRule } from '../edit';
import { firstColumn } from '../clause-words';
import { exprReads, sameColumn } from '../plan-walk';
import { classifyType } from '@nl2p/query-plan';

const NEWEST = /\b(newest|latest|most recent|recent first|last first)\b/i;
const OLDEST = /\b(oldest|earliest|first first)\b/i;
const DESC = /\b(desc|descending|highest|largest|biggest|most|greatest|top|decreasing|reverse)\b/i;
const ASC = /\b(asc|ascending|lowest|smallest|least|increasing|fewest)\b/i;
const SORTING = /\b(sort|sorted|order|ordered|rank|ranked|first)\b/i;

/**
 * "sort by newest", "newest first", "sort by temperature descending", "only the top 5": the order
 * (and the row limit) of the result. Time order in a grouped plan is by each group's latest time.
 *
 * Examples: `sort by newest` on readings → ORDER BY ts DESC; on a per-device average → ORDER BY
 * max(ts) DESC; `only the top 5` → LIMIT 5.
 */
export const setOrder: EditRule = {
  name: 'set-order',
  apply(plan, clause, ctx) {
    const text = clause.text;
    const limit = clause.links.orders.find((o) => o.limit !== null)?.limit ?? null;
    const byTime = NEWEST.test(text) || OLDEST.test(text);
    const sorting = byTime || SORTING.test(text) || clause.links.orders.some((o) => o.key !== null);
    if (!sorting && limit === null) return null;
    if (!sorting) return { plan: { ...plan, limit }, change: `at most ${limit} rows` };
    const direction = NEWEST.test(text) || (DESC.test(text) && !ASC.test(text)) ? 'desc' : 'asc';
    const key = byTime ? timeKey(plan, ctx.tables) : columnKey(plan, firstColumn(plan, clause, ctx)?.ref ?? null);
    if (!key) return null;
    const said = byTime
      ? direction === 'desc'
        ? 'newest first'
        : 'oldest first'
      : `sorted ${direction === 'desc' ? 'descending' : 'ascending'}`;
    return {
      plan: { ...plan, order_by: [{ key, direction }], limit: limit ?? plan.limit },
      change: limit !== null ? `${said}, at most ${limit} rows` : said,
    };
  },
};

/** Time order: the bucket, else the source's time column (its latest per group when grouped). */
function timeKey(plan: QueryPlan, tables: Record<string, { name: string; data_type: string }[]>): OrderKey | null {
  const bucket = plan.select.findIndex((p) => p.kind === 'bucket');
  if (bucket >= 0) return { kind: 'output', index: bucket };
  const time = (tables[plan.source] ?? []).find((c) => classifyType(c.data_type) === 'time');
  if (!time) return null;
  const ref: ColumnRef = { column: time.name };
  const grouped = plan.group_by.length > 0 || plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure');
  if (!grouped) return { kind: 'value', expr: { kind: 'column', ref } };
  if (plan.group_by.some((g) => sameColumn(plan, g, ref))) return { kind: 'value', expr: { kind: 'column', ref } };
  return { kind: 'aggregate', aggregate: { fn: 'max', arg: { kind: 'column', ref }, distinct: false } };
}

/** A column's order: its aggregate when the plan shows one of it, else the column (when it may be). */
function columnKey(plan: QueryPlan, ref: ColumnRef | null): OrderKey | null {
  if (!ref) return null;
  const aggregate = plan.select.find((p) => p.kind === 'aggregate' && exprReads(plan, p.aggregate.arg, ref));
  if (aggregate?.kind === 'aggregate') return { kind: 'aggregate', aggregate: aggregate.aggregate };
  const grouped = plan.group_by.length > 0 || plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure');
  if (grouped && !plan.group_by.some((g) => sameColumn(plan, g, ref))) return null;
  return { kind: 'value', expr: { kind: 'column', ref } };
}
