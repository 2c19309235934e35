import { z } from 'zod';
import {
  AggregateFn,
  CompareOp,
  DatePart,
  SetOperator,
  type ConditionInput,
  type QueryPlanInput,
} from '@nl2p/query-plan';

/**
 * The slots a server model fills beyond the flat form (plan mode, not compact): sub-plans in
 * conditions, a set operation, the rows holding a group's extreme, DISTINCT, HAVING, OFFSET and
 * date parts. Still flat and still enumerated: another table's columns are named `table.column`
 * from every table of the catalog, so a constrained decoder can only pick real names.
 */
export interface NestedVocabulary {
  /** Every table of the catalog. */
  tables: string[];
  /** `table.column` for every column of every table. */
  everyColumn: string[];
}

const EXTRA_OPS = ['in', 'not_in', 'exists', 'not_exists', ...CompareOp.options] as const;

function enumOf(values: readonly string[]): z.ZodType<string> {
  const unique = [...new Set(values)];
  return unique.length ? z.enum(unique as [string, ...string[]]) : z.never();
}

/**
 * The extra slots (every field required, nullable or a list, as strict structured outputs want:
 * the JSON schema of the output marks defaulted fields required). An answer that leaves them out —
 * a server without strict outputs, whose prompt lists only the flat slots — reads as their empty
 * defaults rather than failing the whole plan.
 */
export function nestedSlotShape(v: NestedVocabulary, column: z.ZodType<string>) {
  const any = enumOf(v.everyColumn);
  const filter = z.object({ column: any, op: CompareOp, value: z.union([z.string().max(80), z.number(), z.boolean()]) });
  return {
    distinct: z.boolean().default(false),
    offset: z.number().int().min(0).max(10_000).default(0),
    /** A filter on a part of a date column: `year` of ordered_at = 2014. */
    date_filters: z.array(z.object({ column, part: DatePart, op: CompareOp, value: z.number() })).max(3).default([]),
    having: z.array(z.object({ fn: AggregateFn, of: enumOf(['*', ...v.everyColumn]), op: CompareOp, value: z.number() })).max(2).default([]),
    /** `column op (SELECT fn(of) FROM table WHERE …)`; `exists` ties `tie_inner` to `column`. */
    sub_filters: z.array(z.object({ column, op: z.enum(EXTRA_OPS), quantifier: z.enum(['single', 'all', 'any']), table: enumOf(v.tables), of: any, fn: z.enum(['none', ...AggregateFn.options]), where: filter.nullable() })).max(2).default([]),
    combine: z.object({ op: SetOperator, table: enumOf(v.tables), columns: z.array(any).max(8), where: filter.nullable() }).nullable().default(null),
    extreme: z.object({ per: z.array(column).max(3), by: column, extreme: z.enum(['max', 'min']), count: z.number().int().min(1).max(100) }).nullable().default(null),
  };
} // prettier-ignore

export type NestedSlots = z.infer<z.ZodObject<ReturnType<typeof nestedSlotShape>>>;

/** `orders.status` → {table: orders, column: status}. */
function split(label: string): { table: string; column: string } {
  const dot = label.indexOf('.');
  return { table: label.slice(0, dot), column: label.slice(dot + 1) };
}
const valueOf = (v: string | number | boolean) => (typeof v === 'number' ? { kind: 'number' as const, value: v } : typeof v === 'boolean' ? { kind: 'boolean' as const, value: v } : { kind: 'string' as const, value: v }); // prettier-ignore
const where = (f: { column: string; op: z.infer<typeof CompareOp>; value: string | number | boolean } | null): ConditionInput | null =>
  f ? { kind: 'compare', left: { kind: 'column', ref: split(f.column) }, op: f.op, value: valueOf(f.value) } : null; // prettier-ignore

/** The plan the flat plan means, grown by the extra slots the model filled. */
export function withNestedSlots(plan: QueryPlanInput, slots: Partial<NestedSlots>, refOf: (label: string) => { table?: string | null; column: string }): QueryPlanInput {
  const conditions: ConditionInput[] = plan.where ? [plan.where] : [];
  for (const d of slots.date_filters ?? []) conditions.push({ kind: 'compare', left: { kind: 'column', ref: { ...refOf(d.column), part: d.part } }, op: d.op, value: { kind: 'number', value: d.value } });
  for (const s of slots.sub_filters ?? []) {
    const inner = split(s.of);
    const select = s.fn === 'none' ? [{ kind: 'value' as const, expr: { kind: 'column' as const, ref: inner } }] : [{ kind: 'aggregate' as const, aggregate: { fn: s.fn, arg: s.fn === 'count' ? null : { kind: 'column' as const, ref: inner } } }];
    const sub = { plan: { source: s.table, select, where: where(s.where) } };
    const left = { kind: 'column' as const, ref: refOf(s.column) };
    if (s.op === 'exists' || s.op === 'not_exists') conditions.push({ kind: 'exists', negated: s.op === 'not_exists', subquery: { ...sub, correlate: [{ outer: refOf(s.column), inner }] } });
    else if (s.op === 'in' || s.op === 'not_in') conditions.push({ kind: 'in_subquery', left, negated: s.op === 'not_in', subquery: sub });
    else conditions.push({ kind: 'compare_subquery', left, op: s.op, quantifier: s.quantifier, subquery: sub });
  }
  const c = slots.combine;
  return {
    ...plan,
    distinct: slots.distinct ?? plan.distinct,
    offset: slots.offset ?? 0,
    where: conditions.length === 0 ? null : conditions.length === 1 ? conditions[0] : { kind: 'and', conditions },
    having: [...(plan.having ?? []), ...(slots.having ?? []).map((h) => ({ aggregate: { fn: h.fn, arg: h.of === '*' ? null : { kind: 'column' as const, ref: split(h.of) } }, op: h.op, value: h.value }))],
    extreme_per_group: slots.extreme ? { per: slots.extreme.per.map(refOf), by: { kind: 'column', ref: refOf(slots.extreme.by) }, extreme: slots.extreme.extreme, count: slots.extreme.count } : null,
    set_operations: c ? [{ op: c.op, plan: { source: c.table, select: c.columns.map((l) => ({ kind: 'value' as const, expr: { kind: 'column' as const, ref: split(l) } })), where: where(c.where) } }] : [],
  };
} // prettier-ignore
