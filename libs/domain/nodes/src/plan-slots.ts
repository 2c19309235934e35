import { z } from 'zod';
import type { Column } from '@nl2p/envelope';
import { joinKeyOf } from '@nl2p/linking';
import { nestedSlotShape, withNestedSlots, type NestedSlots, type NestedVocabulary } from './plan-slots-nested';
import {
  AggregateFn,
  classifyType,
  TimeUnit,
  type Aggregate,
  type ColumnRef,
  type Condition,
  type Literal,
  type Projection,
  type QueryPlan,
  type QueryPlanInput,
  type ValueExpr,
} from '@nl2p/query-plan';

/**
 * What the LLM fills in plan mode: a flat form of the query plan (NatSQL-style) in which every
 * name is ENUMERATED from the catalog, so a constrained decoder (the local model's grammar, a
 * server's `json_schema`) can only choose among real tables, columns, functions and operators.
 * Flat on purpose: a small model copes with a list of slots, not a recursive expression tree;
 * {@link slotsToPlan} turns the choice into the typed {@link QueryPlan} deterministically.
 *
 * Column labels are `column` for the chosen table's own columns and `table.column` for columns of
 * tables it may join; struct fields are `column->field`.
 */
export interface SlotVocabulary {
  tables: string[];
  /** Labels of every column (and struct field) that may be named, best-linked first. */
  columns: string[];
  /** Labels of numeric columns: what sum/avg may take. */
  numeric: string[];
  /** Streaming targets get windows; SQL targets time buckets. */
  streaming: boolean;
  /** `auto` mode: the model may say the request is beyond the plan language. */
  allowBeyond: boolean;
  /** Server models (not compact): the extra slots of {@link nestedSlotShape}, over every table. */
  nested?: NestedVocabulary;
}

export const SLOT_OPERATORS = ['=', '!=', '>', '>=', '<', '<=', 'contains', 'is_null', 'not_null'] as const;
export const WINDOW_KINDS = ['tumbling', 'sliding', 'count'] as const;

function enumOf(values: readonly string[]): z.ZodType<string> {
  const unique = [...new Set(values)];
  return unique.length ? z.enum(unique as [string, ...string[]]) : z.never();
}

/** The slot-plan schema for one vocabulary; every field required (strict structured outputs). */
export function slotPlanSchema(v: SlotVocabulary) {
  const column = enumOf(v.columns);
  return z.object({
    table: enumOf(v.tables),
    columns: z.array(column).max(8),
    aggregates: z.array(z.object({ fn: AggregateFn, of: enumOf(['*', ...v.columns]), distinct: z.boolean() })).max(4),
    filters: z
      .array(
        z.object({
          column,
          op: z.enum(SLOT_OPERATORS),
          value: z.union([z.string().max(80), z.number(), z.boolean()]).nullable(),
        }),
      )
      .max(4),
    group_by: z.array(column).max(3),
    time: z
      .object({
        unit: TimeUnit,
        size: z.number().int().min(1).max(100_000),
        ...(v.streaming ? { window: z.enum(WINDOW_KINDS) } : {}),
      })
      .nullable(),
    order: z
      .object({ by: enumOf([...v.columns, ...aggregateLabels(v)]), direction: z.enum(['asc', 'desc']) })
      .nullable(),
    limit: z.number().int().min(1).max(10_000).nullable(),
    // `auto` mode (capable models): the model may say the plan language cannot express the
    // request, or ask the person; small models in `plan` mode get neither escape hatch.
    ...(v.allowBeyond ? { beyond_plan: z.boolean(), question: z.string().max(200).nullable() } : {}),
    ...(v.nested ? nestedSlotShape(v.nested, column) : {}),
  });
}
export type SlotPlan = z.infer<ReturnType<typeof slotPlanSchema>> &
  Partial<NestedSlots> & {
    beyond_plan?: boolean;
    question?: string | null;
    time: TimeSlot | null;
  };
interface TimeSlot {
  unit: TimeUnit;
  size: number;
  window?: (typeof WINDOW_KINDS)[number];
}

/** `avg(temperature)`, `count(*)`: how an aggregate is named in the order slot. */
export function aggregateLabel(fn: string, of: string): string {
  return `${fn}(${of})`;
}

function aggregateLabels(v: SlotVocabulary): string[] {
  return ['count(*)', ...v.numeric.flatMap((c) => ['sum', 'avg', 'min', 'max'].map((fn) => aggregateLabel(fn, c)))];
}

export function isNumericType(dataType: string): boolean {
  return classifyType(dataType) === 'number';
}
export function isTemporalType(dataType: string): boolean {
  return classifyType(dataType) === 'time';
}

/** Labels of a table's columns (struct fields as `a->b`), with their types. */
export function columnLabels(columns: readonly Column[], prefix = ''): { label: string; type: string }[] {
  return columns.flatMap((c) => {
    const label = `${prefix}${c.name}`;
    const own = { label, type: c.data_type };
    return c.fields?.length ? [own, ...columnLabels(c.fields, `${label}->`)] : [own];
  });
}

/**
 * The vocabulary for one request: the chosen table's columns (and the columns of tables it can
 * join, as `table.column`), with the names the linker tied to the request first.
 */
export function slotVocabulary(options: {
  tables: Readonly<Record<string, readonly Column[]>>;
  table: string;
  joinable: readonly string[];
  preferred: readonly string[];
  streaming: boolean;
  allowBeyond: boolean;
  /** Offer the nested slots (server models). */
  nested?: boolean;
}): SlotVocabulary {
  const own = columnLabels(options.tables[options.table] ?? []);
  const joined = options.joinable.flatMap((t) =>
    columnLabels(options.tables[t] ?? []).map((c) => ({ ...c, label: `${t}.${c.label}` })),
  );
  const all = [...own, ...joined];
  const rank = (label: string) => {
    const i = options.preferred.indexOf(label);
    return i < 0 ? options.preferred.length : i;
  };
  const ordered = [...all].sort((a, b) => rank(a.label) - rank(b.label));
  return {
    tables: [options.table, ...Object.keys(options.tables).filter((t) => t !== options.table)],
    columns: ordered.map((c) => c.label),
    numeric: ordered.filter((c) => isNumericType(c.type)).map((c) => c.label),
    streaming: options.streaming,
    allowBeyond: options.allowBeyond,
    ...(options.nested
      ? {
          nested: {
            tables: Object.keys(options.tables),
            everyColumn: Object.entries(options.tables).flatMap(([t, cols]) =>
              columnLabels(cols).map((c) => `${t}.${c.label}`),
            ),
          },
        }
      : {}),
  };
}

/** `orders.quantity` → {table: orders, column: quantity}; `location->lat` → path [lat]. */
export function refOfLabel(label: string): ColumnRef {
  const dot = label.indexOf('.');
  const table = dot > 0 && !label.slice(0, dot).includes('->') ? label.slice(0, dot) : null;
  const [column, ...path] = (table ? label.slice(dot + 1) : label).split('->');
  return { table, column, ...(path.length ? { path } : {}) };
}

function labelOfRef(ref: ColumnRef, source: string): string {
  const base = [ref.column, ...(ref.path ?? [])].join('->');
  return ref.table && ref.table !== source ? `${ref.table}.${base}` : base;
}

const col = (label: string): ValueExpr => ({ kind: 'column', ref: refOfLabel(label) });

function literalFor(value: string | number | boolean, type: string | undefined): Literal {
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (type && isTemporalType(type) && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    return { kind: 'timestamp', value: value.replace('T', ' ').slice(0, 19) };
  }
  if (type && isNumericType(type) && value.trim() !== '' && Number.isFinite(Number(value))) {
    return { kind: 'number', value: Number(value) };
  }
  return { kind: 'string', value };
}

/**
 * The typed plan a slot plan means. Joins are added for every other table it names, on a key
 * both tables share (the linker's `joinKeyOf`); one it cannot join is left for the check to refuse.
 */
export function slotsToPlan(
  slots: SlotPlan,
  tables: Readonly<Record<string, readonly Column[]>>,
  streaming: boolean,
): QueryPlanInput {
  // A small model repeats itself (the same filter twice, a column listed again); a repeated
  // entry adds nothing to the query, so each counts once.
  slots = {
    ...slots,
    columns: distinct(slots.columns),
    group_by: distinct(slots.group_by),
    aggregates: distinct(slots.aggregates),
    filters: distinct(slots.filters),
  };
  const source = slots.table;
  const types = new Map(
    Object.entries(tables).flatMap(([t, cols]) =>
      columnLabels(cols).map((c) => [t === source ? c.label : `${t}.${c.label}`, c.type] as const),
    ),
  );
  const aggregate = (a: { fn: string; of: string; distinct: boolean }): Aggregate => ({
    fn: a.fn as Aggregate['fn'],
    arg: a.of === '*' ? null : col(a.of),
    distinct: a.distinct,
  });
  const select: Projection[] = [];
  let time_bucket: QueryPlan['time_bucket'] = null;
  let window: QueryPlan['window'] = null;
  if (slots.time) {
    if (streaming) {
      const kind = slots.time.window ?? 'tumbling';
      window =
        kind === 'count'
          ? { kind: 'count', size: slots.time.size }
          : kind === 'sliding'
            ? { kind: 'sliding', unit: slots.time.unit, size: slots.time.size, lookahead: 0 }
            : { kind: 'tumbling', unit: slots.time.unit, size: slots.time.size };
    } else {
      const timeColumn = columnLabels(tables[source] ?? []).find((c) => isTemporalType(c.type));
      if (timeColumn) {
        time_bucket = { column: refOfLabel(timeColumn.label), unit: slots.time.unit, size: slots.time.size, as_date: false };
        select.push({ kind: 'bucket', alias: null });
      }
    }
  }
  for (const label of slots.group_by) {
    if (!slots.columns.includes(label)) select.push({ kind: 'value', expr: col(label), alias: null });
  }
  for (const label of slots.columns) select.push({ kind: 'value', expr: col(label), alias: null });
  for (const a of slots.aggregates) select.push({ kind: 'aggregate', aggregate: aggregate(a), alias: null });

  const conditions: Condition[] = slots.filters.flatMap((f): Condition[] => {
    const ref = refOfLabel(f.column);
    if (f.op === 'is_null' || f.op === 'not_null') return [{ kind: 'null', column: ref, negated: f.op === 'not_null' }];
    if (f.value === null) return [];
    if (f.op === 'contains') return [{ kind: 'text', column: ref, match: 'contains', value: String(f.value) }];
    return [
      { kind: 'compare', left: { kind: 'column', ref }, op: f.op, value: literalFor(f.value, types.get(f.column)) },
    ];
  });

  const named = new Set(
    [...slots.columns, ...slots.group_by, ...slots.filters.map((f) => f.column), ...slots.aggregates.map((a) => a.of)]
      .map((l) => refOfLabel(l).table)
      .filter((t): t is string => Boolean(t) && t !== source),
  );
  const joins = [...named].flatMap((t) => {
    const key = joinKeyOf(tables, source, t);
    return key ? [{ table: t, kind: 'inner' as const, on: [{ left: { table: source, column: key.left }, right: { table: t, column: key.right } }] }] : [];
  });

  let order_by: QueryPlanInput['order_by'] = [];
  if (slots.order) {
    const m = /^(count|sum|avg|min|max)\((.+)\)$/.exec(slots.order.by);
    order_by = [
      {
        key: m ? { kind: 'aggregate', aggregate: aggregate({ fn: m[1], of: m[2], distinct: false }) } : { kind: 'value', expr: col(slots.order.by) },
        direction: slots.order.direction,
      },
    ];
  }
  const plan: QueryPlanInput = {
    source,
    joins,
    select,
    where: conditions.length === 0 ? null : conditions.length === 1 ? conditions[0] : { kind: 'and', conditions },
    group_by: slots.group_by.map(refOfLabel),
    time_bucket,
    window,
    order_by,
    limit: slots.limit,
  };
  return 'sub_filters' in slots ? withNestedSlots(plan, slots, refOfLabel) : plan;
} // prettier-ignore

/**
 * A plan in slot form, to show the model what linking proposed; null when the plan uses what
 * slots cannot say (OR, BETWEEN, arithmetic, …): the model then fills the slots on its own.
 */
export function planToSlots(plan: QueryPlan, streaming: boolean): SlotPlan | null {
  const source = plan.source;
  // What only the nested slots say is not shown as a hint: the flat form would drop it.
  if (plan.set_operations.length || plan.extreme_per_group || plan.offset || plan.distinct || plan.having.length)
    return null;
  const labelOf = (e: ValueExpr): string | null => (e.kind === 'column' ? labelOfRef(e.ref, source) : null);
  const columns: string[] = [];
  const aggregates: SlotPlan['aggregates'] = [];
  for (const p of plan.select) {
    if (p.kind === 'bucket') continue;
    // A figure computed from aggregates (a ratio) has no slot.
    if (p.kind === 'measure') return null;
    if (p.kind === 'value') {
      const l = labelOf(p.expr);
      if (!l) return null;
      if (!plan.group_by.some((g) => labelOfRef(g, source) === l)) columns.push(l);
    } else {
      const of = p.aggregate.arg ? labelOf(p.aggregate.arg) : '*';
      if (!of) return null;
      aggregates.push({ fn: p.aggregate.fn, of, distinct: p.aggregate.distinct });
    }
  }
  const filters: SlotPlan['filters'] = [];
  const flat = !plan.where ? [] : plan.where.kind === 'and' ? plan.where.conditions : [plan.where];
  for (const c of flat) {
    if (c.kind === 'compare' && c.left.kind === 'column') {
      filters.push({ column: labelOfRef(c.left.ref, source), op: c.op, value: c.value.value });
    } else if (c.kind === 'text' && c.match === 'contains') {
      filters.push({ column: labelOfRef(c.column, source), op: 'contains', value: c.value });
    } else if (c.kind === 'null') {
      filters.push({ column: labelOfRef(c.column, source), op: c.negated ? 'not_null' : 'is_null', value: null });
    } else return null;
  }
  let time: TimeSlot | null = null;
  if (plan.time_bucket) time = { unit: plan.time_bucket.unit, size: plan.time_bucket.size };
  if (plan.window) {
    const w = plan.window;
    if (w.kind === 'count') time = { unit: 'second', size: w.size, window: 'count' };
    else if (w.kind === 'tumbling' || w.kind === 'sliding') time = { unit: w.unit, size: w.size, window: w.kind };
    else return null;
  }
  if (time && !streaming) delete time.window;
  let order: SlotPlan['order'] = null;
  if (plan.order_by.length > 1) return null;
  const o = plan.order_by[0];
  if (o) {
    const key = o.key;
    const by =
      key.kind === 'value'
        ? labelOf(key.expr)
        : key.kind === 'aggregate'
          ? aggregateLabel(key.aggregate.fn, key.aggregate.arg ? (labelOf(key.aggregate.arg) ?? '?') : '*')
          : outputLabel(plan, key.index);
    if (!by) return null;
    order = { by, direction: o.direction };
  }
  return {
    table: source,
    columns,
    aggregates,
    filters,
    group_by: plan.group_by.map((g) => labelOfRef(g, source)),
    time,
    order,
    limit: plan.limit,
  };
}

function outputLabel(plan: QueryPlan, index: number): string | null {
  const p = plan.select[index];
  if (!p || p.kind === 'bucket' || p.kind === 'measure') return null;
  if (p.kind === 'value') return p.expr.kind === 'column' ? labelOfRef(p.expr.ref, plan.source) : null;
  const arg = p.aggregate.arg;
  if (arg && arg.kind !== 'column') return null;
  return aggregateLabel(p.aggregate.fn, arg ? labelOfRef(arg.ref, plan.source) : '*');
}

/** The entries of a list in order, each value once (by content). */
function distinct<T>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [JSON.stringify(item), item] as const)).values()];
}
