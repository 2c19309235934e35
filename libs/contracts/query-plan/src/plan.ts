import { z } from 'zod';

/**
 * The typed query plan (ARCHITECTURE §7a, seed 001's AST planner): what a request asks for,
 * independent of any dialect. The LLM (or the linker) fills it, the catalog check rejects any
 * name the engine lacks, and each target's compiler turns it into that target's SQL.
 *
 * Kept deliberately small: every construct here must compile on every target or be refused by
 * that target's compiler with a sentence the person can act on (e.g. veloFlux has no joins).
 * Bump {@link QUERY_PLAN_VERSION} on any incompatible change.
 */
export const QUERY_PLAN_VERSION = 1;

/** A column of the source or of a joined table; `path` walks struct fields (`location->lat`). */
export const ColumnRef = z.object({
  /** The table or stream the column belongs to; absent or null = the plan's source. */
  table: z.string().nullable().optional(),
  column: z.string().min(1),
  /** Struct field names below the column, outermost first (veloFlux `a->b->c`). */
  path: z.array(z.string().min(1)).optional(),
});
export type ColumnRef = z.infer<typeof ColumnRef>;

export const ArithmeticOp = z.enum(['+', '-', '*', '/']);
export type ArithmeticOp = z.infer<typeof ArithmeticOp>;

/** A per-row value: a column, a number, or arithmetic over them (`quantity * unit_price`). */
export type ValueExpr =
  | { kind: 'column'; ref: ColumnRef }
  | { kind: 'number'; value: number }
  | { kind: 'arith'; op: ArithmeticOp; left: ValueExpr; right: ValueExpr };
export const ValueExpr: z.ZodType<ValueExpr> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('column'), ref: ColumnRef }),
    z.object({ kind: z.literal('number'), value: z.number().finite() }),
    z.object({ kind: z.literal('arith'), op: ArithmeticOp, left: ValueExpr, right: ValueExpr }),
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
 * A literal compared with a column. Timestamps are ISO-like local times
 * (`2024-03-01 12:00:00`, seconds optional), dates `2024-03-01`.
 */
export const Literal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('string'), value: z.string() }),
  z.object({ kind: z.literal('number'), value: z.number().finite() }),
  z.object({ kind: z.literal('boolean'), value: z.boolean() }),
  z.object({
    kind: z.literal('timestamp'),
    value: z.string().regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, 'YYYY-MM-DD[ HH:MM[:SS]]'),
  }),
]);
export type Literal = z.infer<typeof Literal>;

export const CompareOp = z.enum(['=', '!=', '<', '<=', '>', '>=']);
export type CompareOp = z.infer<typeof CompareOp>;

/** A row filter (WHERE). Aggregates are not allowed here: that is what `having` is for. */
export type Condition =
  | { kind: 'compare'; left: ValueExpr; op: CompareOp; value: Literal }
  | { kind: 'in'; column: ColumnRef; values: Literal[]; negated?: boolean }
  | { kind: 'between'; column: ColumnRef; low: Literal; high: Literal }
  | { kind: 'text'; column: ColumnRef; match: 'contains' | 'starts_with' | 'ends_with'; value: string }
  | { kind: 'null'; column: ColumnRef; negated?: boolean }
  | { kind: 'and' | 'or'; conditions: Condition[] }
  | { kind: 'not'; condition: Condition };
export const Condition: z.ZodType<Condition> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('compare'), left: ValueExpr, op: CompareOp, value: Literal }),
    z.object({
      kind: z.literal('in'),
      column: ColumnRef,
      values: z.array(Literal).min(1),
      negated: z.boolean().optional(),
    }),
    z.object({ kind: z.literal('between'), column: ColumnRef, low: Literal, high: Literal }),
    z.object({
      kind: z.literal('text'),
      column: ColumnRef,
      match: z.enum(['contains', 'starts_with', 'ends_with']),
      value: z.string(),
    }),
    z.object({ kind: z.literal('null'), column: ColumnRef, negated: z.boolean().optional() }),
    z.object({ kind: z.literal('and'), conditions: z.array(Condition).min(1) }),
    z.object({ kind: z.literal('or'), conditions: z.array(Condition).min(1) }),
    z.object({ kind: z.literal('not'), condition: Condition }),
  ]),
);

/** A filter on groups (HAVING): an aggregate compared with a number. */
export const HavingCondition = z.object({
  aggregate: Aggregate,
  op: CompareOp,
  value: z.number().finite(),
});
export type HavingCondition = z.infer<typeof HavingCondition>;

/**
 * One output column. `bucket` is the start of the plan's time bucket (SQL targets); on veloFlux a
 * window has no start column to select, so its compiler refuses it.
 */
export const Projection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('value'), expr: ValueExpr, alias: z.string().nullable().default(null) }),
  z.object({ kind: z.literal('aggregate'), aggregate: Aggregate, alias: z.string().nullable().default(null) }),
  z.object({ kind: z.literal('bucket'), alias: z.string().nullable().default(null) }),
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

export const QueryPlan = z.object({
  version: z.literal(QUERY_PLAN_VERSION).default(QUERY_PLAN_VERSION),
  source: z.string().min(1),
  joins: z.array(Join).default([]),
  /** Empty means every column (`*`). */
  select: z.array(Projection).default([]),
  distinct: z.boolean().default(false),
  where: Condition.nullable().default(null),
  group_by: z.array(ColumnRef).default([]),
  time_bucket: TimeBucket.nullable().default(null),
  window: StreamWindow.nullable().default(null),
  having: z.array(HavingCondition).default([]),
  order_by: z.array(z.object({ key: OrderKey, direction: z.enum(['asc', 'desc']).default('asc') })).default([]),
  limit: z.number().int().positive().nullable().default(null),
});
export type QueryPlan = z.infer<typeof QueryPlan>;
/** A plan as written by hand or by a model: defaults may be left out. */
export type QueryPlanInput = z.input<typeof QueryPlan>;

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
