import { z } from 'zod';

/**
 * The typed query plan (seed 001's AST planner): what a request asks for, independent of any
 * dialect. The LLM (or the linker) fills it, the catalog check rejects any name the engine lacks,
 * and each target's compiler turns it into that target's SQL.
 *
 * A plan is a tree a rule set can build piece by piece: a condition may hold a sub-plan (`IN`,
 * `EXISTS`, a comparison with a sub-plan's value), and set operations combine whole plans. Every
 * construct here must compile on every target or be refused by that target's compiler with a
 * sentence the person can act on (veloFlux has no joins, no sub-plans, no set operations).
 * Bump {@link QUERY_PLAN_VERSION} on any incompatible change.
 */
export const QUERY_PLAN_VERSION = 2;
/**
 * Versions still read. Version 2 only added constructs, so a version-1 plan (kept in a
 * checkpoint's reading or draft) means the same under version 2's rules.
 */
export const READABLE_PLAN_VERSIONS = [1, QUERY_PLAN_VERSION] as const;

/**
 * A part of a date or time, as a number. `day_of_week` counts from Sunday = 0 to Saturday = 6
 * (DuckDB's and PostgreSQL's `dow`); `week` is the ISO week (1-53, weeks start on Monday).
 */
export const DatePart = z.enum([
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'day_of_week',
  'day_of_year',
  'hour',
  'minute',
  'second',
]);
export type DatePart = z.infer<typeof DatePart>;

/**
 * A column of the source or of a joined table; `path` walks struct fields (`location->lat`).
 * With `part`, the number that part of a date or time column holds: "in 2014" compares the
 * `year` of `ordered_at` with 2014, "per month of the year" groups by its `month`, "on weekdays"
 * keeps `day_of_week` 1 to 5. It stands wherever a column does (shown, compared, grouped, sorted).
 */
export const ColumnRef = z.object({
  /** The table or stream the column belongs to; absent or null = the plan's source. */
  table: z.string().nullable().optional(),
  column: z.string().min(1),
  /** Struct field names below the column, outermost first (veloFlux `a->b->c`). */
  path: z.array(z.string().min(1)).optional(),
  part: DatePart.optional(),
});
export type ColumnRef = z.infer<typeof ColumnRef>;

export const ArithmeticOp = z.enum(['+', '-', '*', '/']);
export type ArithmeticOp = z.infer<typeof ArithmeticOp>;

/** Units an elapsed time is counted in: fixed lengths (a month or a year is not one). */
export const ElapsedUnit = z.enum(['second', 'minute', 'hour', 'day', 'week']);
export type ElapsedUnit = z.infer<typeof ElapsedUnit>;

/**
 * A per-row value: a column (or a part of a date column), a number, arithmetic over them
 * (`quantity * unit_price`), or the time elapsed from one date or time column to another, as a
 * number of `unit`s with its fraction (`days from hire_date to termination_date`; negative when
 * `to` is earlier).
 */
export type ValueExpr =
  | { kind: 'column'; ref: ColumnRef }
  | { kind: 'number'; value: number }
  | { kind: 'arith'; op: ArithmeticOp; left: ValueExpr; right: ValueExpr }
  | { kind: 'elapsed'; unit: ElapsedUnit; from: ColumnRef; to: ColumnRef };
export const ValueExpr: z.ZodType<ValueExpr, ValueExpr> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('column'), ref: ColumnRef }),
    z.object({ kind: z.literal('number'), value: z.number().finite() }),
    z.object({ kind: z.literal('arith'), op: ArithmeticOp, left: ValueExpr, right: ValueExpr }),
    z.object({ kind: z.literal('elapsed'), unit: ElapsedUnit, from: ColumnRef, to: ColumnRef }),
  ]),
);

export const AggregateFn = z.enum(['count', 'sum', 'avg', 'min', 'max']);
export type AggregateFn = z.infer<typeof AggregateFn>;

/** `count(*)` when `arg` is null (count only); `distinct` counts/aggregates distinct values. */
export const Aggregate = z.object({
  fn: AggregateFn,
  arg: ValueExpr.nullable().default(null),
  distinct: z.boolean().default(false),
});
export type Aggregate = z.infer<typeof Aggregate>;

export const TimeUnit = z.enum(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
export type TimeUnit = z.infer<typeof TimeUnit>;

/**
 * A moment said relative to the day the query runs ("the last 30 days", "this month"): the start
 * of the current `start_of` period (today's start when absent and the unit is a day or longer; the
 * current time for hours, minutes and seconds), moved by `amount` units (negative: back).
 * `{amount: -30, unit: 'day'}` is 30 days before today's start; `{amount: -6, unit: 'month',
 * start_of: 'month'}` the start of the month six months before this one.
 */
export const RelativeMoment = z.object({
  amount: z.number().int(),
  unit: TimeUnit,
  start_of: TimeUnit.nullable().optional(),
});
export type RelativeMoment = z.infer<typeof RelativeMoment>;

/**
 * A literal compared with a column. Timestamps are ISO-like local times
 * (`2024-03-01 12:00:00`, seconds optional), dates `2024-03-01`. A timestamp said relative to
 * today carries `relative` too: SQL targets compute it when the query runs (`CURRENT_DATE -
 * INTERVAL '30 day'`), so a plan kept and run again means the same window; `value` is the moment
 * as it was when the plan was made (what messages show).
 */
export const Literal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('string'), value: z.string() }),
  z.object({ kind: z.literal('number'), value: z.number().finite() }),
  z.object({ kind: z.literal('boolean'), value: z.boolean() }),
  z.object({
    kind: z.literal('timestamp'),
    value: z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'YYYY-MM-DD[ HH:MM[:SS]]'),
    relative: RelativeMoment.optional(),
  }),
]);
export type Literal = z.infer<typeof Literal>;

export const CompareOp = z.enum(['=', '!=', '<', '<=', '>', '>=']);
export type CompareOp = z.infer<typeof CompareOp>;

/** How a sub-plan's rows are tied to the row being filtered: `inner = outer`, column by column. */
export const Correlation = z.object({
  /** A column of the plan that holds the condition. */
  outer: ColumnRef,
  /** A column of the sub-plan (its source or a table it joins). */
  inner: ColumnRef,
});
export type Correlation = z.infer<typeof Correlation>;

/**
 * A plan inside a condition. It names only its own tables; `correlate` ties its rows to the
 * outer row (`orders.customer_id = customers.customer_id` for "customers who placed an order").
 * Uncorrelated, it is computed once ("above the average price").
 */
export interface Subquery {
  plan: QueryPlan;
  correlate: Correlation[];
}
export interface SubqueryInput {
  plan: QueryPlanInput;
  correlate?: Correlation[];
}

/** Text matches ignore case on every target (`equals` too: "named alice" finds `Alice`). */
export const TextMatch = z.enum(['contains', 'starts_with', 'ends_with', 'equals']);
export type TextMatch = z.infer<typeof TextMatch>;

/**
 * How a value is compared with a sub-plan's one output column: `single` with its one value (the
 * sub-plan must return at most one row: aggregated without groups, or limited to 1), `all` with
 * every value ("older than every manager": `> ALL`), `any` with at least one.
 */
export const Quantifier = z.enum(['single', 'all', 'any']);
export type Quantifier = z.infer<typeof Quantifier>;

/**
 * A row filter (WHERE). Aggregates are not allowed here: that is what `having` is for. Written
 * over the sub-query type `S`, so the parsed form and the hand-written form share one shape.
 */
export type ConditionOf<S> =
  | { kind: 'compare'; left: ValueExpr; op: CompareOp; value: Literal }
  | { kind: 'in'; column: ColumnRef; values: Literal[]; negated?: boolean }
  | { kind: 'between'; column: ColumnRef; low: Literal; high: Literal }
  | { kind: 'text'; column: ColumnRef; match: TextMatch; value: string }
  | { kind: 'null'; column: ColumnRef; negated?: boolean }
  | { kind: 'and' | 'or'; conditions: ConditionOf<S>[] }
  | { kind: 'not'; condition: ConditionOf<S> }
  /** `left IN (sub-plan)`; negated, the values the sub-plan never returns (its NULLs left aside). */
  | { kind: 'in_subquery'; left: ValueExpr; subquery: S; negated?: boolean }
  /** The sub-plan has a row (for this row, when correlated); negated, it has none. */
  | { kind: 'exists'; subquery: S; negated?: boolean }
  | { kind: 'compare_subquery'; left: ValueExpr; op: CompareOp; quantifier?: Quantifier; subquery: S };
export type Condition = ConditionOf<Subquery>;
export type ConditionInput = ConditionOf<SubqueryInput>;
export const Condition: z.ZodType<Condition, ConditionInput> = z.lazy(() => {
  const subquery = z.object({ plan: QueryPlan, correlate: z.array(Correlation).default([]) });
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('compare'), left: ValueExpr, op: CompareOp, value: Literal }),
    z.object({
      kind: z.literal('in'),
      column: ColumnRef,
      values: z.array(Literal).min(1),
      negated: z.boolean().optional(),
    }),
    z.object({ kind: z.literal('between'), column: ColumnRef, low: Literal, high: Literal }),
    z.object({ kind: z.literal('text'), column: ColumnRef, match: TextMatch, value: z.string() }),
    z.object({ kind: z.literal('null'), column: ColumnRef, negated: z.boolean().optional() }),
    z.object({ kind: z.literal('and'), conditions: z.array(Condition).min(1) }),
    z.object({ kind: z.literal('or'), conditions: z.array(Condition).min(1) }),
    z.object({ kind: z.literal('not'), condition: Condition }),
    z.object({ kind: z.literal('in_subquery'), left: ValueExpr, subquery, negated: z.boolean().optional() }),
    z.object({ kind: z.literal('exists'), subquery, negated: z.boolean().optional() }),
    z.object({
      kind: z.literal('compare_subquery'),
      left: ValueExpr,
      op: CompareOp,
      quantifier: Quantifier.optional(),
      subquery,
    }),
  ]);
});

/** A filter on groups (HAVING): an aggregate compared with a number. */
export const HavingCondition = z.object({
  aggregate: Aggregate,
  op: CompareOp,
  value: z.number().finite(),
});
export type HavingCondition = z.infer<typeof HavingCondition>;

/**
 * A figure computed from aggregates: a ratio (`count of rated above 4 / count of rated below 4`),
 * a share (`100 * count of Italian / count`), a margin (`(sum(amount) - sum(tax)) / sum(amount)`).
 * Each aggregate is taken over the rows its `filter` keeps (all the plan's rows without one), so
 * two parts of one set can be compared in one row per group; with `all_groups`, over the rows of
 * every group (count, sum, min, max): the whole a group is a share of (`count / count of all`).
 * Division is real division, and a division by zero is NULL on every target.
 */
export type MeasureExprOf<A, C> =
  | { kind: 'aggregate'; aggregate: A; filter?: C | null; all_groups?: boolean }
  | { kind: 'number'; value: number }
  | { kind: 'arith'; op: ArithmeticOp; left: MeasureExprOf<A, C>; right: MeasureExprOf<A, C> };
export type MeasureExpr = MeasureExprOf<Aggregate, Condition>;
export type MeasureExprInput = MeasureExprOf<z.input<typeof Aggregate>, ConditionInput>;
export const MeasureExpr: z.ZodType<MeasureExpr, MeasureExprInput> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('aggregate'),
      aggregate: Aggregate,
      filter: Condition.nullable().optional(),
      all_groups: z.boolean().optional(),
    }),
    z.object({ kind: z.literal('number'), value: z.number().finite() }),
    z.object({ kind: z.literal('arith'), op: ArithmeticOp, left: MeasureExpr, right: MeasureExpr }),
  ]),
);

/**
 * One output column. `bucket` is the start of the plan's time bucket (SQL targets); on veloFlux a
 * window has no start column to select, so its compiler refuses it. `measure` is a figure computed
 * from aggregates (a ratio, a share): the plan is aggregated, as with `aggregate`.
 */
export const Projection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('value'), expr: ValueExpr, alias: z.string().nullable().default(null) }),
  z.object({ kind: z.literal('aggregate'), aggregate: Aggregate, alias: z.string().nullable().default(null) }),
  z.object({ kind: z.literal('bucket'), alias: z.string().nullable().default(null) }),
  z.object({ kind: z.literal('measure'), expr: MeasureExpr, alias: z.string().nullable().default(null) }),
]);
export type Projection = z.infer<typeof Projection>;

/**
 * Time grouping on SQL targets: rows grouped by the start of their `size`×`unit` bucket of
 * `column` (`date_trunc` when size is 1, `time_bucket`/`date_bin` otherwise). `as_date` asks for
 * a calendar date rather than a timestamp (daily buckets shown as dates).
 */
export const TimeBucket = z.object({
  column: ColumnRef,
  unit: TimeUnit,
  size: z.number().int().positive().default(1),
  as_date: z.boolean().default(false),
});
export type TimeBucket = z.infer<typeof TimeBucket>;

/**
 * A streaming window (veloFlux). Times are `size`×`unit`; `count` windows count rows;
 * `sliding` looks back `size` (and ahead `lookahead`); `hopping` advances by `hop`; `state`
 * opens when `open` holds and emits when `emit` holds, per `partition_by`. A target without a
 * kind refuses it by name (veloFlux has no hopping or session window).
 */
export const StreamWindow = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tumbling'), unit: TimeUnit, size: z.number().int().positive() }),
  z.object({
    kind: z.literal('hopping'),
    unit: TimeUnit,
    size: z.number().int().positive(),
    hop: z.number().int().positive(),
  }),
  z.object({
    kind: z.literal('sliding'),
    unit: TimeUnit,
    size: z.number().int().positive(),
    lookahead: z.number().int().nonnegative().default(0),
  }),
  z.object({ kind: z.literal('session'), unit: TimeUnit, gap: z.number().int().positive() }),
  z.object({ kind: z.literal('count'), size: z.number().int().positive() }),
  z.object({
    kind: z.literal('state'),
    open: Condition,
    emit: Condition,
    partition_by: z.array(ColumnRef).default([]),
  }),
]);
export type StreamWindow = z.infer<typeof StreamWindow>;

/** Joins follow declared or inferred keys: `left` is a column already in scope. */
export const Join = z.object({
  table: z.string().min(1),
  kind: z.enum(['inner', 'left']).default('inner'),
  on: z.array(z.object({ left: ColumnRef, right: ColumnRef })).min(1),
});
export type Join = z.infer<typeof Join>;

/** What ORDER BY sorts on: an output column by position (0-based), or any value or aggregate. */
export const OrderKey = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('output'), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('value'), expr: ValueExpr }),
  z.object({ kind: z.literal('aggregate'), aggregate: Aggregate }),
]);
export type OrderKey = z.infer<typeof OrderKey>;

/**
 * The rows that hold their group's extreme ("for each team, its oldest player"; "the agent with
 * the highest commission" when `per` is empty): after WHERE, only the rows whose `by` is among
 * the `count` highest (`max`) or lowest (`min`) of their group are kept, ties included; a row
 * whose `by` is null never holds an extreme. Grouping, ordering and LIMIT then apply to them.
 */
export const ExtremePerGroup = z.object({
  per: z.array(ColumnRef).default([]),
  by: ValueExpr,
  extreme: z.enum(['max', 'min']),
  count: z.number().int().positive().default(1),
});
export type ExtremePerGroup = z.infer<typeof ExtremePerGroup>;

export const SetOperator = z.enum(['union', 'union_all', 'intersect', 'except']);
export type SetOperator = z.infer<typeof SetOperator>;

/**
 * The typed plan. Set operations combine this plan's rows with other plans', left to right
 * (`((this op1 a) op2 b)`); the plan's `order_by` (output positions only), `limit` and `offset`
 * then apply to the combined rows.
 */
export interface QueryPlan {
  version: (typeof READABLE_PLAN_VERSIONS)[number];
  source: string;
  joins: Join[];
  /** Empty means every column (`*`). */
  select: Projection[];
  distinct: boolean;
  where: Condition | null;
  group_by: ColumnRef[];
  time_bucket: TimeBucket | null;
  window: StreamWindow | null;
  having: HavingCondition[];
  order_by: { key: OrderKey; direction: 'asc' | 'desc' }[];
  limit: number | null;
  /** Rows skipped before LIMIT counts ("the second highest": LIMIT 1 OFFSET 1). */
  offset: number;
  extreme_per_group: ExtremePerGroup | null;
  set_operations: { op: SetOperator; plan: QueryPlan }[];
}
/** A plan as written by hand or by a model: defaults may be left out. */
export interface QueryPlanInput {
  version?: (typeof READABLE_PLAN_VERSIONS)[number];
  source: string;
  joins?: z.input<typeof Join>[];
  select?: z.input<typeof Projection>[];
  distinct?: boolean;
  where?: ConditionInput | null;
  group_by?: z.input<typeof ColumnRef>[];
  time_bucket?: z.input<typeof TimeBucket> | null;
  window?: z.input<typeof StreamWindow> | null;
  having?: z.input<typeof HavingCondition>[];
  order_by?: { key: z.input<typeof OrderKey>; direction?: 'asc' | 'desc' }[];
  limit?: number | null;
  offset?: number;
  extreme_per_group?: z.input<typeof ExtremePerGroup> | null;
  set_operations?: { op: SetOperator; plan: QueryPlanInput }[];
}
export const QueryPlan: z.ZodType<QueryPlan, QueryPlanInput> = z.lazy(() =>
  z.object({
    version: z.union([z.literal(1), z.literal(QUERY_PLAN_VERSION)]).default(QUERY_PLAN_VERSION),
    source: z.string().min(1),
    joins: z.array(Join).default([]),
    select: z.array(Projection).default([]),
    distinct: z.boolean().default(false),
    where: Condition.nullable().default(null),
    group_by: z.array(ColumnRef).default([]),
    time_bucket: TimeBucket.nullable().default(null),
    window: StreamWindow.nullable().default(null),
    having: z.array(HavingCondition).default([]),
    order_by: z.array(z.object({ key: OrderKey, direction: z.enum(['asc', 'desc']).default('asc') })).default([]),
    limit: z.number().int().positive().nullable().default(null),
    offset: z.number().int().nonnegative().default(0),
    extreme_per_group: ExtremePerGroup.nullable().default(null),
    set_operations: z.array(z.object({ op: SetOperator, plan: QueryPlan })).default([]),
  }),
);

/** Parses a plan; throws {@link QueryPlanError} naming every bad path. */
export function parseQueryPlan(value: unknown): QueryPlan {
  const parsed = QueryPlan.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new QueryPlanError(`invalid query plan: ${issues}`);
  }
  return parsed.data;
}

/** A plan that cannot be used as it is: malformed, naming what the catalog lacks, or beyond a target. */
export class QueryPlanError extends Error {
  override readonly name = 'QueryPlanError';
}
