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
  /**
   * `left / right` as the plan means it: real division. Optional; the plain operator otherwise.
   * `safe` says the divisor is a non-zero number literal.
   */
  divide?(left: string, right: string, safe: boolean): string;
  /** SQL tables: the start of a row's bucket. Throws QueryPlanError when the dialect has no such bucket. */
  bucket?(column: string, bucket: TimeBucket): string;
  /** Streams: the window written inside GROUP BY. */
  window?(window: StreamWindow, condition: (c: Condition) => string, column: (r: ColumnRef) => string): string;
  /** Refuses what the dialect cannot express (joins, LIMIT on a stream, …) before writing SQL. */
  refuse(plan: QueryPlan, tables: PlanTables): void;
  /** Sentences the person must read with this SQL (how the dialect evaluates it). */
  /**
   * `where`: the WHERE clause as written; `rowCondition`: the condition written into the
   * aggregates instead ({@link rowConditionsInAggregates}).
   */
  assumptions(plan: QueryPlan, sql: { where: string | null; rowCondition: string | null }): string[];
  /**
   * Why an output name cannot be used (veloFlux: it equals an input column, or is reserved), or
   * null. Every dialect also requires output names to be unique.
   */
  aliasProblem(alias: string, plan: QueryPlan, tables: PlanTables): string | null;
  /**
   * veloFlux: every non-aggregate SELECT item must textually equal a GROUP BY key, so a computed
   * value over group keys is grouped by its own text too (it depends only on those keys, so the
   * groups stay the same). SQL targets accept it as it is.
   */
  groupComputedValues: boolean;
  /**
   * veloFlux: a WHERE beside a window is applied after the aggregation (recorded), so a condition
   * on rows is written into each aggregate (`avg(CASE WHEN c THEN x END)`) and a window or group
   * with no matching row is dropped by `HAVING count(CASE WHEN c THEN 1 END) > 0`: the numbers a
   * per-row filter gives, shown on the real engine with known input.
   */
  rowConditionsInAggregates?: boolean;
  /** veloFlux: `ndv(x)`, the distinct count that runs (count(DISTINCT x) fails when run). */
  distinctCount?(arg: string): string;
}

const SIMPLE = /^[a-z_][a-z0-9_]*$/;

/** `"name"` only when it has to be: not lower-case simple, or a reserved word. */
export function quoteIfNeeded(name: string, reserved: ReadonlySet<string>): string {
  return SIMPLE.test(name) && !reserved.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * A number as SQL: plain digits, never JavaScript's exponent form (`1e+21`, `1e-7`), which not
 * every parser reads as a number literal.
 */
export function numberSql(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  const [mantissa, exp] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [int, frac = ''] = mantissa.replace('-', '').split('.');
  const digits = int + frac;
  const point = int.length + Number(exp);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${plain}`;
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
      return numberSql(v.value);
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
  d.refuse(plan, tables);
  const notes: string[] = [];
  const qualify = plan.joins.length > 0;
  const col = (r: ColumnRef) => d.column(r, qualify);
  const value = (e: ValueExpr, nested = false): string => {
    if (e.kind === 'column') return col(e.ref);
    // `quantity - (-1)`, not `quantity - -1`.
    if (e.kind === 'number') return nested && e.value < 0 ? `(${numberSql(e.value)})` : numberSql(e.value);
    const left = value(e.left, true);
    const right = value(e.right, true);
    const safe = e.right.kind === 'number' && e.right.value !== 0;
    const text = e.op === '/' && d.divide ? d.divide(left, right, safe) : `${left} ${e.op} ${right}`;
    return nested ? `(${text})` : text;
  };
  // A condition on rows that the dialect evaluates inside the aggregates instead of in WHERE.
  let rowCondition: string | null = null;
  // min/max of distinct values equal min/max of all values: DISTINCT is dropped there, so a
  // dialect that allows it only in count() still says the same thing.
  const aggregate = (a: Aggregate): string => {
    if (!a.arg) return rowCondition ? `${a.fn}(CASE WHEN ${rowCondition} THEN 1 END)` : `${a.fn}(*)`;
    const arg = rowCondition ? `CASE WHEN ${rowCondition} THEN ${value(a.arg)} END` : value(a.arg);
    if (a.fn === 'count' && a.distinct && d.distinctCount) return d.distinctCount(arg);
    return `${a.fn}(${a.distinct && a.fn !== 'min' && a.fn !== 'max' ? 'DISTINCT ' : ''}${arg})`;
  };
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

  const windowAggregates = plan.window !== null && (plan.select.some((p) => p.kind === 'aggregate') || plan.having.length > 0);
  if (d.rowConditionsInAggregates && plan.where && windowAggregates) rowCondition = condition(plan.where);

  // Output names: readable, unique, never one the dialect forbids. The plan's own aliases and the
  // names plain columns show under are claimed first, so a generated name never takes them.
  const taken = new Set<string>();
  const claim = (name: string) => taken.add(name.toLowerCase());
  // A generated name also keeps clear of every input column, so no reader (or engine) has to
  // decide whether `count` means the column or the output.
  const inputNames = new Set([plan.source, ...plan.joins.map((j) => j.table)].flatMap((t) => (tables[t] ?? []).map((c) => c.name.toLowerCase())));
  const free = (name: string) => !taken.has(name.toLowerCase()) && !inputNames.has(name.toLowerCase()) && !d.reserved.has(name.toLowerCase()) && !d.aliasProblem(name, plan, tables);
  for (const p of plan.select) {
    if (p.kind === 'value' && !p.alias && p.expr.kind === 'column' && !p.expr.ref.path?.length) claim(p.expr.ref.column);
  }
  const aliasFor = (wanted: string): string => {
    let alias = wanted.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'value';
    if (/^\d/.test(alias)) alias = `v_${alias}`;
    let unique = alias;
    for (let n = 2; !free(unique); n++) unique = `${alias}_${n}`;
    claim(unique);
    return unique;
  };
  const ownAlias = (alias: string, fallback: string): string => {
    const problem = taken.has(alias.toLowerCase()) ? 'it is already the name of another output' : d.aliasProblem(alias, plan, tables);
    if (!problem) {
      claim(alias);
      return alias;
    }
    const renamed = aliasFor(fallback);
    notes.push(`The output asked to be called '${alias}' is called '${renamed}' instead: on ${d.label} ${problem}.`);
    return renamed;
  };
  const bucketSql = plan.time_bucket ? d.bucket?.(col(plan.time_bucket.column), plan.time_bucket) : undefined;
  if (plan.time_bucket && !bucketSql) throw new QueryPlanError(`${d.label} has no time buckets; group by a window instead`);
  const bucketName = (b: TimeBucket | null) =>
    !b ? 'bucket_start' : b.as_date && b.unit === 'day' && b.size === 1 ? 'day' : b.size === 1 ? `${b.unit}_start` : 'bucket_start';

  // Aliases the plan chose come first, in order, so the first of two equal ones keeps its name.
  const chosen = plan.select.map((p) => (p.alias ? ownAlias(p.alias, defaultName(p)) : null));
  function defaultName(p: Projection): string {
    if (p.kind === 'value') return describeValue(p.expr);
    if (p.kind === 'aggregate') return aggregateName(p.aggregate);
    return bucketName(plan.time_bucket);
  }
  const outputs = plan.select.map((p: Projection, i) => {
    const own = chosen[i];
    if (p.kind === 'value') {
      const text = value(p.expr);
      const needsName = p.expr.kind !== 'column' || (p.expr.ref.path?.length ?? 0) > 0;
      return { text, alias: own ?? (needsName ? aliasFor(describeValue(p.expr)) : null), computed: p.expr.kind !== 'column' };
    }
    if (p.kind === 'aggregate') return { text: aggregate(p.aggregate), alias: own ?? aliasFor(aggregateName(p.aggregate)), computed: false };
    // `day` for dates, `hour_start` for hours, `bucket_start` for 10-minute buckets.
    return { text: bucketSql ?? '', alias: own ?? aliasFor(bucketName(plan.time_bucket)), computed: false };
  });
  const selectList = outputs.length ? outputs.map((o) => (o.alias ? `${o.text} AS ${d.identifier(o.alias)}` : o.text)).join(', ') : '*';

  const from = [d.identifier(plan.source)];
  for (const j of plan.joins) {
    const on = j.on.map((o) => `${d.column({ ...o.left, table: o.left.table ?? plan.source }, true)} = ${d.column({ ...o.right, table: o.right.table ?? j.table }, true)}`);
    from.push(`${j.kind === 'left' ? 'LEFT JOIN' : 'JOIN'} ${d.identifier(j.table)} ON ${on.join(' AND ')}`);
  }
  const groupKeys = [...(bucketSql ? [bucketSql] : []), ...plan.group_by.map(col)];
  const aggregated = groupKeys.length > 0 || plan.having.length > 0 || plan.select.some((p) => p.kind === 'aggregate');
  if (d.groupComputedValues && aggregated) {
    for (const o of outputs) if (o.computed && !groupKeys.includes(o.text)) groupKeys.push(o.text);
  }
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

  const where = plan.where && !rowCondition ? condition(plan.where) : null;
  const parts = [`SELECT ${plan.distinct ? 'DISTINCT ' : ''}${selectList}`, `FROM ${from.join(' ')}`];
  if (where) parts.push(`WHERE ${where}`);
  if (groupKeys.length) parts.push(`GROUP BY ${groupKeys.join(', ')}`);
  const having = plan.having.map((h) => `${aggregate(h.aggregate)} ${h.op} ${numberSql(h.value)}`);
  // A group with no row meeting the condition emits nothing, as a per-row filter would leave it.
  if (rowCondition) having.push(`count(CASE WHEN ${rowCondition} THEN 1 END) > 0`);
  if (having.length) parts.push(`HAVING ${having.join(' AND ')}`);
  if (plan.order_by.length) parts.push(`ORDER BY ${plan.order_by.map((o) => `${orderKey(o.key)}${o.direction === 'desc' ? ' DESC' : ''}`).join(', ')}`);
  if (plan.limit !== null) parts.push(`LIMIT ${plan.limit}`);
  return { sql: parts.join(' '), assumptions: [...d.assumptions(plan, { where, rowCondition }), ...notes] };
} // prettier-ignore

function describeValue(e: ValueExpr): string {
  if (e.kind === 'number') return e.value < 0 ? `neg_${numberSql(-e.value)}` : numberSql(e.value);
  if (e.kind === 'column') return [e.ref.column, ...(e.ref.path ?? [])].join('_');
  const word = { '+': 'plus', '-': 'minus', '*': 'times', '/': 'per' }[e.op];
  return `${describeValue(e.left)}_${word}_${describeValue(e.right)}`;
}

/** `avg_temperature`, `count`, `count_distinct_customer_id`, `sum_quantity_times_unit_price`. */
export function aggregateName(a: Aggregate): string {
  if (!a.arg) return a.fn;
  return `${a.fn}_${a.distinct && a.fn !== 'min' && a.fn !== 'max' ? 'distinct_' : ''}${describeValue(a.arg)}`;
}
