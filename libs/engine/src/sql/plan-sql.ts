import {
  QueryPlanError,
  type Aggregate,
  type ColumnRef,
  type Condition,
  type Literal,
  type OrderKey,
  type Projection,
  type QueryPlan,
  type StreamWindow,
  type TimeBucket,
  type ValueExpr,
} from '@nl2p/query-plan';
import type { CompiledQuery, PlanTables } from '../compiler';

/**
 * What differs between the dialects a plan compiles to. Everything else — the clause order,
 * readable aliases, qualifying columns when tables are joined, group keys — is shared, so every
 * target's SQL is written by one {@link compilePlan} (ARCHITECTURE §7a).
 */
export interface PlanDialect {
  label: string;
  /** Words that must be quoted as identifiers. */
  reserved: ReadonlySet<string>;
  /** Writes `name` as an identifier, quoted only when it has to be. */
  identifier(name: string): string;
  column(ref: ColumnRef, qualify: boolean): string;
  literal(value: Literal): string;
  textMatch(column: string, match: 'contains' | 'starts_with' | 'ends_with', value: string): string;
  isNull(column: string, negated: boolean): string;
  /** SQL tables: the start of a row's bucket. Throws QueryPlanError when the dialect has no such bucket. */
  bucket?(column: string, bucket: TimeBucket): string;
  /** Streams: the window written inside GROUP BY. */
  window?(window: StreamWindow, condition: (c: Condition) => string, column: (r: ColumnRef) => string): string;
  /** Refuses what the dialect cannot express (joins, LIMIT on a stream, …) before writing SQL. */
  refuse(plan: QueryPlan): void;
  /** Sentences the person must read with this SQL (how the dialect evaluates it). */
  assumptions(plan: QueryPlan): string[];
  /** Names an alias may not take (veloFlux: any input column). */
  forbiddenAliases(plan: QueryPlan, tables: PlanTables): Set<string>;
}

const SIMPLE = /^[a-z_][a-z0-9_]*$/;

/** `"name"` only when it has to be: not lower-case simple, or a reserved word. */
export function quoteIfNeeded(name: string, reserved: ReadonlySet<string>): string {
  return SIMPLE.test(name) && !reserved.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A literal in a dialect that spells booleans and timestamps its own way (or refuses them). */
export function literalSql(
  v: Literal,
  spell: { booleans: [string, string]; timestamp(value: string): string },
): string {
  switch (v.kind) {
    case 'string':
      return stringLiteral(v.value);
    case 'number':
      return String(v.value);
    case 'boolean':
      return v.value ? spell.booleans[0] : spell.booleans[1];
    case 'timestamp':
      return spell.timestamp(v.value);
  }
}

/** `2024-03-01` → `2024-03-01 00:00:00`; `2024-03-01 12:00` → `2024-03-01 12:00:00`. */
export function fullTimestamp(value: string): string {
  const [date, time = '00:00:00'] = value.split(' ');
  return `${date} ${time.length === 5 ? `${time}:00` : time}`;
}

/** Compiles a plan that passed `checkPlan` with one dialect. */
export function compilePlan(plan: QueryPlan, tables: PlanTables, d: PlanDialect): CompiledQuery {
  d.refuse(plan);
  const qualify = plan.joins.length > 0;
  const col = (r: ColumnRef) => d.column(r, qualify);
  const value = (e: ValueExpr, nested = false): string => {
    if (e.kind === 'column') return col(e.ref);
    if (e.kind === 'number') return String(e.value);
    const text = `${value(e.left, true)} ${e.op} ${value(e.right, true)}`;
    return nested ? `(${text})` : text;
  };
  const aggregate = (a: Aggregate): string =>
    a.arg ? `${a.fn}(${a.distinct ? 'DISTINCT ' : ''}${value(a.arg)})` : `${a.fn}(*)`;
  const condition = (c: Condition, nested = false): string => {
    switch (c.kind) {
      case 'compare':
        return `${value(c.left)} ${c.op} ${d.literal(c.value)}`;
      case 'in':
        return `${col(c.column)} ${c.negated ? 'NOT IN' : 'IN'} (${c.values.map((v) => d.literal(v)).join(', ')})`;
      case 'between':
        return `${col(c.column)} BETWEEN ${d.literal(c.low)} AND ${d.literal(c.high)}`;
      case 'text':
        return d.textMatch(col(c.column), c.match, c.value);
      case 'null':
        return d.isNull(col(c.column), c.negated ?? false);
      case 'and':
      case 'or': {
        const text = c.conditions.map((x) => condition(x, true)).join(` ${c.kind.toUpperCase()} `);
        return nested && c.conditions.length > 1 ? `(${text})` : text;
      }
      case 'not':
        return `NOT (${condition(c.condition)})`;
    }
  };

  // Readable, unique aliases for computed outputs; never one the dialect forbids.
  const taken = d.forbiddenAliases(plan, tables);
  const aliasFor = (wanted: string): string => {
    let alias = wanted.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'value';
    if (/^\d/.test(alias)) alias = `v_${alias}`;
    let unique = alias;
    for (let n = 2; taken.has(unique) || d.reserved.has(unique); n++) unique = `${alias}_${n}`;
    taken.add(unique);
    return unique;
  };
  const bucketSql = plan.time_bucket ? d.bucket?.(col(plan.time_bucket.column), plan.time_bucket) : undefined;
  if (plan.time_bucket && !bucketSql) throw new QueryPlanError(`${d.label} has no time buckets`);

  const outputs = plan.select.map((p: Projection) => {
    if (p.kind === 'value') {
      const text = value(p.expr);
      const needsName = p.expr.kind !== 'column' || (p.expr.ref.path?.length ?? 0) > 0;
      const alias = p.alias ?? (needsName ? aliasFor(describeValue(p.expr)) : null);
      return { text, alias, aggregate: null as string | null };
    }
    if (p.kind === 'aggregate') {
      const text = aggregate(p.aggregate);
      return { text, alias: p.alias ?? aliasFor(aggregateName(p.aggregate)), aggregate: text };
    }
    // `day` for dates, `hour_start` for hours, `bucket_start` for 10-minute buckets.
    const b = plan.time_bucket;
    const name = !b ? 'bucket_start' : b.as_date && b.unit === 'day' && b.size === 1 ? 'day' : b.size === 1 ? `${b.unit}_start` : 'bucket_start';
    return { text: bucketSql ?? '', alias: p.alias ?? aliasFor(name), aggregate: null };
  });
  const selectList = outputs.length ? outputs.map((o) => (o.alias ? `${o.text} AS ${d.identifier(o.alias)}` : o.text)).join(', ') : '*';

  const from = [d.identifier(plan.source)];
  for (const j of plan.joins) {
    const on = j.on.map((o) => `${d.column({ ...o.left, table: o.left.table ?? plan.source }, true)} = ${d.column({ ...o.right, table: o.right.table ?? j.table }, true)}`);
    from.push(`${j.kind === 'left' ? 'LEFT JOIN' : 'JOIN'} ${d.identifier(j.table)} ON ${on.join(' AND ')}`);
  }
  const groupKeys = [...(bucketSql ? [bucketSql] : []), ...plan.group_by.map(col)];
  if (plan.window) {
    if (!d.window) throw new QueryPlanError(`windows are for streams; on ${d.label} group by a time bucket instead`);
    groupKeys.push(d.window(plan.window, (c) => condition(c), col));
  }
  const orderKey = (k: OrderKey): string => {
    if (k.kind === 'output') {
      const o = outputs[k.index];
      return o.alias ? d.identifier(o.alias) : o.text;
    }
    const text = k.kind === 'value' ? value(k.expr) : aggregate(k.aggregate);
    const same = outputs.find((o) => o.text === text && o.alias);
    return same?.alias ? d.identifier(same.alias) : text;
  };

  const parts = [`SELECT ${plan.distinct ? 'DISTINCT ' : ''}${selectList}`, `FROM ${from.join(' ')}`];
  if (plan.where) parts.push(`WHERE ${condition(plan.where)}`);
  if (groupKeys.length) parts.push(`GROUP BY ${groupKeys.join(', ')}`);
  if (plan.having.length) parts.push(`HAVING ${plan.having.map((h) => `${aggregate(h.aggregate)} ${h.op} ${h.value}`).join(' AND ')}`);
  if (plan.order_by.length) parts.push(`ORDER BY ${plan.order_by.map((o) => `${orderKey(o.key)}${o.direction === 'desc' ? ' DESC' : ''}`).join(', ')}`);
  if (plan.limit !== null) parts.push(`LIMIT ${plan.limit}`);
  return { sql: parts.join(' '), assumptions: d.assumptions(plan) };
} // prettier-ignore

function describeValue(e: ValueExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'column') return [e.ref.column, ...(e.ref.path ?? [])].join('_');
  const word = { '+': 'plus', '-': 'minus', '*': 'times', '/': 'per' }[e.op];
  return `${describeValue(e.left)}_${word}_${describeValue(e.right)}`;
}

/** `avg_temperature`, `count`, `count_distinct_customer_id`, `sum_quantity_times_unit_price`. */
export function aggregateName(a: Aggregate): string {
  if (!a.arg) return a.fn;
  return `${a.fn}_${a.distinct ? 'distinct_' : ''}${describeValue(a.arg)}`;
}
