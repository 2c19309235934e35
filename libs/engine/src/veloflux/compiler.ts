import { QueryPlanError, type Condition, type QueryPlan, type StreamWindow, type TimeUnit } from '@nl2p/query-plan';
import type { QueryCompiler } from '../compiler';
import { WHERE_AFTER_WINDOW } from './where-semantics';
import { compilePlan, literalSql, stringLiteral, type PlanDialect } from '../sql/plan-sql';

/**
 * veloFlux's dialect as the recorded engine accepts it (CONTRACT §7, corrected by
 * `manager-api/recorded/`): one stream, no JOIN, windows inside GROUP BY with the time unit `'ss'`
 * only, struct access `(a->b)` parenthesised, `isnull()` for IS NULL, `startswith` / `endswith` /
 * `regexp_matches` for text, no TIMESTAMP or INTERVAL literals, and aliases that never equal an
 * input column. What the engine parses but silently ignores (LIMIT, DISTINCT) is refused with a
 * sentence rather than compiled into SQL that means something else.
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
  if (!per)
    throw new QueryPlanError(`veloFlux windows are measured in seconds; a window of ${size} ${unit}(s) is too long`);
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
      throw new QueryPlanError('veloFlux has no hopping window; use a tumbling or sliding window');
    case 'session':
      throw new QueryPlanError('veloFlux has no session window; use a tumbling, sliding or state window');
  }
} // prettier-ignore

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const identifier = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED.has(name.toLowerCase()) ? name : `\`${name}\``;

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
      timestamp: () => {
        throw new QueryPlanError('veloFlux has no timestamp literals; a stream cannot be filtered by a date range in SQL');
      },
    }),
  textMatch(column, match, value) {
    if (match === 'starts_with') return `startswith(${column}, ${stringLiteral(value)})`;
    if (match === 'ends_with') return `endswith(${column}, ${stringLiteral(value)})`;
    return `regexp_matches(${column}, ${stringLiteral(escapeRegex(value))})`;
  },
  isNull: (column, negated) => `${negated ? 'NOT ' : ''}isnull(${column})`,
  window: windowSql,
  refuse(plan: QueryPlan) {
    if (plan.joins.length) throw new QueryPlanError('veloFlux cannot join streams; ask about one stream at a time');
    if (plan.time_bucket) throw new QueryPlanError('veloFlux groups time with windows, not time buckets; ask for a window (e.g. every 10 seconds)');
    if (plan.limit !== null) throw new QueryPlanError('veloFlux ignores LIMIT (every window emits all its rows), so a top-N cannot be expressed');
    if (plan.distinct) throw new QueryPlanError('veloFlux ignores SELECT DISTINCT, so distinct rows cannot be expressed');
    if (plan.having.length && !plan.window) throw new QueryPlanError('veloFlux allows HAVING only with a window in GROUP BY');
    if (plan.select.some((p) => p.kind === 'bucket')) throw new QueryPlanError('veloFlux windows have no start column to select');
  },
  assumptions(plan: QueryPlan) {
    if (!plan.where || !plan.window) return [];
    // Recorded on the real engine: the explain shows Filter above the aggregation, and live output
    // decides once per window (manager-api/recorded/README.md).
    return [WHERE_AFTER_WINDOW];
  },
  forbiddenAliases(plan, tables) {
    // The engine rejects an alias equal to any input column, `col_<n>` and `__vf_*`; the names of
    // every column (and struct field) are taken so no alias can shadow one.
    const names = new Set<string>();
    const visit = (cols: readonly { name: string; fields?: { name: string }[] }[]) =>
      cols.forEach((c) => {
        names.add(c.name.toLowerCase());
        if (c.fields) visit(c.fields);
      });
    visit(tables[plan.source] ?? []);
    return names;
  },
}; // prettier-ignore

export const velofluxCompiler: QueryCompiler = {
  compile: (plan, tables) => compilePlan(plan, tables, VELOFLUX_DIALECT),
};
