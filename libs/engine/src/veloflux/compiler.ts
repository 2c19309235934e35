import {
  classifyType,
  QueryPlanError,
  type Aggregate,
  type ColumnRef,
  type Condition,
  type QueryPlan,
  type StreamWindow,
  type TimeUnit,
} from '@nl2p/query-plan';
import type { PlanTables, QueryCompiler } from '../compiler';
import { conditionInAggregates, whereAfterWindow } from './where-semantics';
import { refuseBeyondStream } from './refuse-beyond-stream';
import { compilePlan, literalSql, stringLiteral, type PlanDialect } from '../sql/plan-sql';

/**
 * veloFlux's dialect as the recorded engine accepts it (CONTRACT §7, corrected by
 * `manager-api/recorded/`; `compiler.spec.ts` cites the exchange behind each rule): one stream,
 * no JOIN, windows inside GROUP BY with the time unit `'ss'` only, struct access `(a->b)`
 * parenthesised, `isnull()` for IS NULL, `startswith` / `endswith` / `regexp_matches` for text,
 * no TIMESTAMP or INTERVAL literals, and aliases that never equal an input column. What the
 * engine parses but silently ignores (LIMIT, DISTINCT) is refused with a sentence rather than
 * compiled into SQL that means something else.
 */
const SECONDS: Partial<Record<TimeUnit, number>> = { second: 1, minute: 60, hour: 3_600, day: 86_400 };

// Keywords of the engine's SQL parser that cannot stand as bare identifiers.
const RESERVED = new Set(
  'select from where group by having order limit and or not null true false as on join case when then else end in is between distinct all any asc desc'.split(
    ' ',
  ),
);

function seconds(unit: TimeUnit, size: number): number {
  const per = SECONDS[unit];
  if (!per) {
    throw new QueryPlanError(
      `veloFlux windows are measured in seconds, so a window of ${size} ${unit}(s) (not a fixed number of seconds) cannot be expressed; use seconds, minutes, hours or days`,
    );
  }
  return size * per;
}

function windowSql(w: StreamWindow, condition: (c: Condition) => string, column: Parameters<NonNullable<PlanDialect['window']>>[2]): string {
  switch (w.kind) {
    case 'tumbling':
      return `tumblingwindow('ss', ${seconds(w.unit, w.size)})`;
    case 'sliding':
      return `slidingwindow('ss', ${seconds(w.unit, w.size)}${w.lookahead ? `, ${seconds(w.unit, w.lookahead)}` : ''})`;
    case 'count':
      return `countwindow(${w.size})`;
    case 'state': {
      const over = w.partition_by.length ? ` OVER (PARTITION BY ${w.partition_by.map(column).join(', ')})` : '';
      return `statewindow(${condition(w.open)}, ${condition(w.emit)})${over}`;
    }
    case 'hopping':
      throw new QueryPlanError('veloFlux has no hopping window; use a sliding window (overlapping) or a tumbling window (back to back)');
    case 'session':
      throw new QueryPlanError('veloFlux has no session window; use a state window (open and emit conditions) or a tumbling window');
  }
} // prettier-ignore

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const identifier = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toLowerCase()) ? name : `\`${name}\``;

/** Every aggregate a plan names: selected, in HAVING, or sorted on. */
function aggregatesOf(plan: QueryPlan): Aggregate[] {
  return [
    ...plan.select.flatMap((p) => (p.kind === 'aggregate' ? [p.aggregate] : [])),
    ...plan.having.map((h) => h.aggregate),
    ...plan.order_by.flatMap((o) => (o.key.kind === 'aggregate' ? [o.key.aggregate] : [])),
  ];
}

/**
 * The first timestamp column a condition compares with a literal: a string there would be
 * compared at run time, where veloFlux reports type errors only in its stats.
 */
function timeComparison(plan: QueryPlan, tables: PlanTables): string | null {
  const columns = tables[plan.source] ?? [];
  const isTime = (ref: ColumnRef) => {
    let c = columns.find((x) => x.name === ref.column);
    for (const f of ref.path ?? []) c = c?.fields?.find((x) => x.name === f);
    return c !== undefined && classifyType(c.data_type) === 'time';
  };
  const visit = (c: Condition): string | null => {
    switch (c.kind) {
      case 'compare':
        return c.left.kind === 'column' && isTime(c.left.ref) ? c.left.ref.column : null;
      case 'in':
      case 'between':
        return isTime(c.column) ? c.column.column : null;
      case 'and':
      case 'or':
        return c.conditions.map(visit).find((x) => x !== null) ?? null;
      case 'not':
        return visit(c.condition);
      default:
        return null;
    }
  };
  const windowConditions = plan.window?.kind === 'state' ? [plan.window.open, plan.window.emit] : [];
  return [plan.where, ...windowConditions].map((c) => (c ? visit(c) : null)).find((x) => x !== null) ?? null;
}

export const VELOFLUX_DIALECT: PlanDialect = {
  label: 'veloFlux',
  reserved: RESERVED,
  identifier,
  column(ref, qualify) {
    const base = `${qualify && ref.table ? `${identifier(ref.table)}.` : ''}${identifier(ref.column)}`;
    // `a->b > 1` parses as `a -> (b > 1)`: struct access is always parenthesised.
    return ref.path?.length ? `(${[base, ...ref.path.map(identifier)].join('->')})` : base;
  },
  literal: (v) =>
    literalSql(v, {
      booleans: ['true', 'false'],
      timestamp: (t) => {
        throw new QueryPlanError(
          `veloFlux has no timestamp literals, so a stream cannot be compared with '${t}'; filter on a Unix epoch number column instead, or drop the date condition`,
        );
      },
    }),
  // Text matches are case-insensitive on every target (ILIKE on the SQL ones): both sides are
  // lowered, the column with the engine's lower() and the text here.
  textMatch(column, match, value) {
    const cased = /[A-Za-z]/.test(value);
    const subject = cased ? `lower(${column})` : column;
    const text = cased ? value.toLowerCase() : value;
    if (match === 'equals') return `${subject} = ${stringLiteral(text)}`;
    if (match === 'starts_with') return `startswith(${subject}, ${stringLiteral(text)})`;
    if (match === 'ends_with') return `endswith(${subject}, ${stringLiteral(text)})`;
    return `regexp_matches(${subject}, ${stringLiteral(escapeRegex(text))})`;
  },
  isNull: (column, negated) => `${negated ? 'NOT ' : ''}isnull(${column})`,
  window: windowSql,
  refuse(plan: QueryPlan, tables) {
    refuseBeyondStream(plan);
    if (plan.joins.length) throw new QueryPlanError('veloFlux cannot join streams; ask about one stream at a time');
    // Recorded: a quoted stream name is looked up with its quotes (probe_quoted_stream_create).
    if (identifier(plan.source) !== plan.source) throw new QueryPlanError(`veloFlux reads a stream by its bare name, and '${plan.source}' cannot be written bare; rename the stream`);
    const timeColumn = timeComparison(plan, tables);
    if (timeColumn) throw new QueryPlanError(`veloFlux has no timestamp literals, so ${timeColumn} (a timestamp) cannot be compared with a value; filter on a Unix epoch number column instead, or drop the date condition`);
    if (plan.time_bucket) throw new QueryPlanError('veloFlux groups time with windows, not time buckets; ask for a window (e.g. every 10 seconds)');
    if (plan.limit !== null) throw new QueryPlanError('veloFlux ignores LIMIT (every window emits all its rows), so a top-N or first-N cannot be expressed; drop the limit');
    if (plan.distinct) throw new QueryPlanError('veloFlux ignores SELECT DISTINCT, so distinct rows cannot be expressed; count distinct values with count(distinct …) instead');
    if (plan.select.some((p) => p.kind === 'bucket')) throw new QueryPlanError('veloFlux windows have no start column to select; drop the bucket column');
    // Not checked against the engine (how it divides, how CASE inside an aggregate behaves per window): refused rather than guessed.
    if (plan.select.some((p) => p.kind === 'measure')) throw new QueryPlanError('a figure computed from aggregates (a ratio or a share) is not built for veloFlux pipelines; ask for each aggregate on its own');
    const aggregates = aggregatesOf(plan);
    if (plan.having.length && !plan.window) throw new QueryPlanError('veloFlux allows HAVING only with a window in GROUP BY; add a window (e.g. every 60 seconds)');
    if (plan.group_by.length && aggregates.length === 0) {
      throw new QueryPlanError('veloFlux cannot group without an aggregate; add one (e.g. count) or drop the grouping');
    }
    const distinct = aggregates.find((a) => a.distinct && (a.fn === 'sum' || a.fn === 'avg'));
    if (distinct) throw new QueryPlanError(`veloFlux allows DISTINCT only inside count(), so ${distinct.fn} of distinct values cannot be expressed`);
  },
  assumptions(plan: QueryPlan, sql) {
    const out: string[] = [];
    // Recorded on the real engine: the explain shows Filter above the aggregation, and live output
    // decides once per window (manager-api/recorded/README.md).
    if (sql.where && plan.window) out.push(whereAfterWindow(sql.where));
    if (sql.rowCondition) out.push(conditionInAggregates(sql.rowCondition));
    if (plan.order_by.length) out.push('veloFlux sorts only within each emitted window or batch of rows; there is no order across them.');
    return out;
  },
  aliasProblem(alias, plan, tables) {
    // Recorded: an alias equal to an input column is rejected, and so would shadow it wherever
    // the column is used again; `col_<n>` and `__vf_*` are the engine's own names.
    if (/^col_\d+$/i.test(alias) || alias.toLowerCase().startsWith('__vf_')) return `'${alias}' is a name the engine reserves for itself`;
    const names = new Set<string>();
    const visit = (cols: readonly { name: string; fields?: { name: string }[] }[]) =>
      cols.forEach((c) => {
        names.add(c.name.toLowerCase());
        if (c.fields) visit(c.fields);
      });
    visit(tables[plan.source] ?? []);
    return names.has(alias.toLowerCase()) ? `an output cannot take the name of an input column ('${alias}')` : null;
  },
  groupComputedValues: true,
  rowConditionsInAggregates: true,
  // Live engine: count(DISTINCT x) is created and then fails when the pipeline runs ("DISTINCT
  // aggregates are not supported yet"); ndv(x) counts the same and runs.
  distinctCount: (arg) => `ndv(${arg})`,
  // Live engine: `BETWEEN` and `IN (…)` pass create and explain, then fail on every row ("Type
  // mismatch … got Bool(true) and Bool(false)") while the pipeline reports itself running; the
  // comparisons they stand for give the right rows.
  between: (column, low, high) => `${column} >= ${low} AND ${column} <= ${high}`,
  inList: (column, values, negated) => values.map((v) => `${column} ${negated ? '!=' : '='} ${v}`).join(negated ? ' AND ' : ' OR '),
}; // prettier-ignore

export const velofluxCompiler: QueryCompiler = {
  compile: (plan, tables) => compilePlan(plan, tables, VELOFLUX_DIALECT),
};
