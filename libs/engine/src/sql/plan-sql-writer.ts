import {
  QueryPlanError,
  type Aggregate,
  type ColumnRef,
  type Condition,
  type Correlation,
  type MeasureExpr,
  type OrderKey,
  type Projection,
  type QueryPlan,
  type ValueExpr,
} from '@nl2p/query-plan';
import type { PlanTables } from '../compiler';
import { numberSql, type PlanDialect } from './plan-sql';
import { bucketName, defaultName, describeValue, aggregateName, measureName, OutputNames } from './plan-sql-names';
import { RankedRows } from './plan-sql-ranked';

/** What every SELECT of one statement shares. */
export interface WriteContext {
  d: PlanDialect;
  tables: PlanTables;
  /** Sentences for the turn's assumptions, gathered from every level. */
  notes: string[];
  /** Aliases given so far in the statement, so none is given twice. */
  aliases: Set<string>;
}

const SET_OPERATORS: Record<QueryPlan['set_operations'][number]['op'], string> = {
  union: 'UNION', union_all: 'UNION ALL', intersect: 'INTERSECT', except: 'EXCEPT',
}; // prettier-ignore

interface Output {
  text: string;
  alias: string | null;
  computed: boolean;
}

/**
 * Writes one plan as one SELECT (with its set operations, order and limit). A sub-plan gets a
 * writer of its own, whose parent is the writer of the plan holding the condition: its columns
 * are always qualified, a table an enclosing SELECT already reads gets an alias (`orders_2`), and
 * its correlation pairs become `inner = outer` in its WHERE.
 */
export class SelectWriter {
  /** Each table of this plan's FROM → the name it has in SQL (its own, or an alias). */
  readonly names = new Map<string, string>();
  private readonly qualify: boolean;
  private readonly ranked: RankedRows | null;
  /** The WHERE as written (null when none), and a row condition written into the aggregates instead. */
  whereSql: string | null = null;
  rowCondition: string | null = null;

  constructor(
    private readonly plan: QueryPlan,
    private readonly ctx: WriteContext,
    private readonly parent: SelectWriter | null,
    private readonly correlate: readonly Correlation[] = [],
  ) {
    const ancestors = new Set<string>();
    for (let w = parent; w; w = w.parent) w.names.forEach((n) => ancestors.add(n));
    for (const table of [plan.source, ...plan.joins.map((j) => j.table)])
      this.names.set(table, this.nameFor(table, ancestors));
    this.qualify = plan.joins.length > 0 || parent !== null;
    this.ranked = plan.extreme_per_group ? new RankedRows(plan, ctx, (r) => this.rowCol(r, false, true)) : null;
  }

  /** The whole statement: SELECT, its set operations, then order, limit and offset. */
  write(): string {
    const plan = this.plan;
    if (!plan.set_operations.length) return [this.select(), ...this.orderAndLimit((k) => this.orderKey(k))].join(' ');
    let sql = this.select();
    plan.set_operations.forEach(({ op, plan: operand }, i) => {
      // Left to right, as the plan says: SQL would otherwise bind INTERSECT first.
      const left = i > 0 ? `(${sql})` : sql;
      sql = `${left} ${SET_OPERATORS[op]} ${new SelectWriter(operand, this.ctx, this.parent).write()}`;
    });
    // The combined rows have no table: they are sorted by output position.
    return [sql, ...this.orderAndLimit((k) => (k.kind === 'output' ? String(k.index + 1) : this.orderKey(k)))].join(
      ' ',
    );
  }

  /** A column as this plan's FROM reads it (WHERE, joins, correlation). */
  rowCol(ref: ColumnRef, forceQualify = false, bare = false): string {
    const d = this.ctx.d;
    const table = this.names.get(ref.table ?? this.plan.source) ?? ref.table ?? null;
    const base = d.column(
      { table, column: ref.column, ...(ref.path ? { path: ref.path } : {}) },
      this.qualify || forceQualify,
    );
    return ref.part && !bare ? this.datePart(ref, base) : base;
  }

  private datePart(ref: ColumnRef, column: string): string {
    const part = ref.part;
    if (!part) return column;
    if (!this.ctx.d.datePart) throw new QueryPlanError(`${this.ctx.d.label} cannot take the ${part} of ${ref.column}`);
    return this.ctx.d.datePart(part, column);
  }

  /** A column as the output clauses read it: from the ranked rows when there are any. */
  private outCol(ref: ColumnRef): string {
    if (!this.ranked) return this.rowCol(ref);
    return this.datePart(ref, this.ranked.column(ref));
  }

  private value(e: ValueExpr, col: (r: ColumnRef) => string, nested = false): string {
    if (e.kind === 'column') return col(e.ref);
    // `quantity - (-1)`, not `quantity - -1`.
    if (e.kind === 'number') return nested && e.value < 0 ? `(${numberSql(e.value)})` : numberSql(e.value);
    const d = this.ctx.d;
    if (e.kind === 'elapsed') {
      if (!d.elapsed)
        throw new QueryPlanError(`${d.label} cannot count the time from ${e.from.column} to ${e.to.column}`);
      return d.elapsed(e.unit, col(e.from), col(e.to));
    }
    const left = this.value(e.left, col, true);
    const right = this.value(e.right, col, true);
    const safe = e.right.kind === 'number' && e.right.value !== 0;
    const text = e.op === '/' && d.divide ? d.divide(left, right, safe) : `${left} ${e.op} ${right}`;
    return nested ? `(${text})` : text;
  }

  // min/max of distinct values equal min/max of all values: DISTINCT is dropped there, so a
  // dialect that allows it only in count() still says the same thing. `only`: the condition of a
  // measure's filtered aggregate, written the way a row condition is (CASE WHEN, on every target).
  private aggregate(a: Aggregate, only: string | null = null): string {
    const d = this.ctx.d;
    const rc = [this.rowCondition, only].filter((c) => c !== null).join(' AND ') || null;
    if (!a.arg) return rc ? `${a.fn}(CASE WHEN ${rc} THEN 1 END)` : `${a.fn}(*)`;
    const v = this.value(a.arg, (r) => this.outCol(r));
    const arg = rc ? `CASE WHEN ${rc} THEN ${v} END` : v;
    if (a.fn === 'count' && a.distinct && d.distinctCount) return d.distinctCount(arg);
    return `${a.fn}(${a.distinct && a.fn !== 'min' && a.fn !== 'max' ? 'DISTINCT ' : ''}${arg})`;
  }

  /**
   * A figure computed from aggregates: each filtered aggregate over its rows only, and division
   * as the dialect divides (real division, NULL when dividing by zero).
   */
  private measure(e: MeasureExpr, nested = false): string {
    if (e.kind === 'number') return nested && e.value < 0 ? `(${numberSql(e.value)})` : numberSql(e.value);
    if (e.kind === 'aggregate') {
      const each = this.aggregate(e.aggregate, e.filter ? this.condition(e.filter, true) : null);
      // The whole of every group: the groups' own figures added up (counts and sums), or their extreme.
      if (!e.all_groups) return each;
      const over = e.aggregate.fn === 'count' ? 'sum' : e.aggregate.fn;
      return `${over}(${each}) OVER ()`;
    }
    const left = this.measure(e.left, true);
    const right = this.measure(e.right, true);
    const safe = e.right.kind === 'number' && e.right.value !== 0;
    const d = this.ctx.d;
    const text = e.op === '/' && d.divide ? d.divide(left, right, safe) : `${left} ${e.op} ${right}`;
    return nested ? `(${text})` : text;
  }

  /** A row condition (WHERE, state windows). */
  condition(c: Condition, nested = false): string {
    const d = this.ctx.d;
    const col = (r: ColumnRef) => this.rowCol(r);
    switch (c.kind) {
      case 'compare':
        return `${this.value(c.left, col)} ${c.op} ${d.literal(c.value)}`;
      case 'in': {
        const values = c.values.map((v) => d.literal(v));
        if (!d.inList) return `${col(c.column)} ${c.negated ? 'NOT IN' : 'IN'} (${values.join(', ')})`;
        // A dialect whose engine cannot run IN writes the list as equalities (veloFlux).
        const text = d.inList(col(c.column), values, c.negated ?? false);
        return nested && values.length > 1 ? `(${text})` : text;
      }
      case 'between': {
        const [column, low, high] = [col(c.column), d.literal(c.low), d.literal(c.high)];
        if (!d.between) return `${column} BETWEEN ${low} AND ${high}`;
        return nested ? `(${d.between(column, low, high)})` : d.between(column, low, high);
      }
      case 'text':
        return d.textMatch(col(c.column), c.match, c.value);
      case 'null':
        return d.isNull(col(c.column), c.negated ?? false);
      case 'and':
      case 'or': {
        const text = c.conditions.map((x) => this.condition(x, true)).join(` ${c.kind.toUpperCase()} `);
        return nested && c.conditions.length > 1 ? `(${text})` : text;
      }
      case 'not':
        return `NOT (${this.condition(c.condition)})`;
      case 'exists':
        return `${c.negated ? 'NOT ' : ''}EXISTS (${this.child(c.subquery.plan, c.subquery.correlate)})`;
      case 'in_subquery':
      case 'compare_subquery':
        return this.againstSubquery(c);
    }
  }

  /**
   * `x IN (…)`, `x > (…)`, `x > ALL (…)`. Where the sub-plan's NULLs would change the answer, they
   * are left out: `x NOT IN` a list holding NULL is never true, and `> ALL` of a set holding NULL
   * never either, which is not what "never ordered" or "older than every manager" mean.
   */
  private againstSubquery(c: Extract<Condition, { kind: 'in_subquery' | 'compare_subquery' }>): string {
    const left = this.value(c.left, (r) => this.rowCol(r));
    const sub = this.child(c.subquery.plan, c.subquery.correlate);
    const known = () => {
      const name = this.freshAlias('sub_values');
      return `SELECT v FROM (${sub}) AS ${name}(v) WHERE v IS NOT NULL`;
    };
    if (c.kind === 'in_subquery') return c.negated ? `${left} NOT IN (${known()})` : `${left} IN (${sub})`;
    const quantifier = c.quantifier ?? 'single';
    if (quantifier === 'single') return `${left} ${c.op} (${sub})`;
    return `${left} ${c.op} ${quantifier === 'all' ? 'ALL' : 'ANY'} (${known()})`;
  }

  private child(plan: QueryPlan, correlate: readonly Correlation[]): string {
    return new SelectWriter(plan, this.ctx, this, correlate).write();
  }

  /** SELECT … FROM … WHERE … GROUP BY … HAVING … of this plan alone. */
  private select(): string {
    const { plan, ctx } = this;
    const d = ctx.d;
    const windowAggregates = plan.window !== null && (plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure') || plan.having.length > 0);
    if (d.rowConditionsInAggregates && plan.where && windowAggregates) this.rowCondition = this.condition(plan.where);
    const outputs = this.outputs();
    const selectList = outputs.length ? outputs.map((o) => (o.alias ? `${o.text} AS ${d.identifier(o.alias)}` : o.text)).join(', ') : '*';
    const where = this.whereParts();
    const parts = [`SELECT ${plan.distinct ? 'DISTINCT ' : ''}${selectList}`];
    if (this.ranked) {
      parts.push(`FROM ${this.ranked.from(this.fromSql(), where, (e) => this.value(e, (r) => this.rowCol(r)))}`, `WHERE ${this.ranked.keep()}`);
    } else {
      parts.push(`FROM ${this.fromSql()}`);
      if (where.length) parts.push(`WHERE ${where.join(' AND ')}`);
    }
    const groupKeys = this.groupKeys(outputs);
    if (groupKeys.length) parts.push(`GROUP BY ${groupKeys.join(', ')}`);
    const having = plan.having.map((h) => `${this.aggregate(h.aggregate)} ${h.op} ${numberSql(h.value)}`);
    // A group with no row meeting the condition emits nothing, as a per-row filter would leave it.
    if (this.rowCondition) having.push(`count(CASE WHEN ${this.rowCondition} THEN 1 END) > 0`);
    if (having.length) parts.push(`HAVING ${having.join(' AND ')}`);
    this.lastOutputs = outputs;
    return parts.join(' ');
  } // prettier-ignore

  /** The WHERE conditions: the plan's (unless written into the aggregates) and the correlation pairs. */
  private whereParts(): string[] {
    const { plan } = this;
    // Beside other conditions (correlation pairs, the ranked rows' own), an OR is parenthesised.
    const own = plan.where && !this.rowCondition ? this.condition(plan.where, this.correlate.length > 0 || this.ranked !== null) : null;
    this.whereSql = own;
    const tied = this.correlate.map((pair) => `${this.rowCol(pair.inner)} = ${this.parent?.rowCol(pair.outer, true) ?? '?'}`);
    return [...(own ? [own] : []), ...tied];
  } // prettier-ignore

  private fromSql(): string {
    const { plan, ctx } = this;
    const d = ctx.d;
    const named = (t: string) => {
      const n = this.names.get(t) ?? t;
      return n === t ? d.identifier(t) : `${d.identifier(t)} AS ${d.identifier(n)}`;
    };
    const from = [named(plan.source)];
    for (const j of plan.joins) {
      const on = j.on.map((o) => `${this.rowCol({ ...o.left, table: o.left.table ?? plan.source }, true)} = ${this.rowCol({ ...o.right, table: o.right.table ?? j.table }, true)}`);
      from.push(`${j.kind === 'left' ? 'LEFT JOIN' : 'JOIN'} ${named(j.table)} ON ${on.join(' AND ')}`);
    }
    return from.join(' ');
  } // prettier-ignore

  private bucketSql: string | undefined;
  private lastOutputs: Output[] = [];

  private outputs(): Output[] {
    const { plan, ctx } = this;
    const d = ctx.d;
    const names = new OutputNames(plan, ctx.tables, d, ctx.notes);
    this.bucketSql = plan.time_bucket ? d.bucket?.(this.outCol(plan.time_bucket.column), plan.time_bucket) : undefined;
    if (plan.time_bucket && !this.bucketSql) throw new QueryPlanError(`${d.label} has no time buckets; group by a window instead`);
    const select = this.ranked && !plan.select.length ? this.ranked.everyColumn() : plan.select;
    // Aliases the plan chose come first, in order, so the first of two equal ones keeps its name.
    const chosen = select.map((p) => (p.alias ? names.own(p.alias, defaultName(p, plan.time_bucket)) : null));
    return select.map((p: Projection, i): Output => {
      const own = chosen[i];
      if (p.kind === 'value') {
        const text = this.value(p.expr, (r) => this.outCol(r));
        const plain = p.expr.kind === 'column' && !p.expr.ref.path?.length && !p.expr.ref.part;
        const renamed = plain && p.expr.kind === 'column' && this.ranked !== null && this.ranked.renames(p.expr.ref);
        return { text, alias: own ?? (!plain || renamed ? names.generated(describeValue(p.expr)) : null), computed: p.expr.kind !== 'column' };
      }
      if (p.kind === 'aggregate') return { text: this.aggregate(p.aggregate), alias: own ?? names.generated(aggregateName(p.aggregate)), computed: false };
      if (p.kind === 'measure') return { text: this.measure(p.expr), alias: own ?? names.generated(measureName(p.expr)), computed: false };
      return { text: this.bucketSql ?? '', alias: own ?? names.generated(bucketName(plan.time_bucket)), computed: false };
    });
  } // prettier-ignore

  private groupKeys(outputs: Output[]): string[] {
    const { plan, ctx } = this;
    const d = ctx.d;
    const keys = [...(this.bucketSql ? [this.bucketSql] : []), ...plan.group_by.map((r) => this.outCol(r))];
    const aggregated = keys.length > 0 || plan.having.length > 0 || plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure');
    if (d.groupComputedValues && aggregated) {
      for (const o of outputs) if (o.computed && !keys.includes(o.text)) keys.push(o.text);
    }
    if (plan.window) {
      if (!d.window) throw new QueryPlanError(`windows are for streams; on ${d.label} group by a time bucket instead`);
      keys.push(d.window(plan.window, (c) => this.condition(c), (r) => this.rowCol(r)));
    }
    return keys;
  } // prettier-ignore

  private orderKey(k: OrderKey): string {
    const d = this.ctx.d;
    const outputs = this.lastOutputs;
    if (k.kind === 'output') {
      const o = outputs[k.index];
      return o.alias ? d.identifier(o.alias) : o.text;
    }
    const text = k.kind === 'value' ? this.value(k.expr, (r) => this.outCol(r)) : this.aggregate(k.aggregate);
    const same = outputs.find((o) => o.text === text && o.alias);
    return same?.alias ? d.identifier(same.alias) : text;
  }

  private orderAndLimit(key: (k: OrderKey) => string): string[] {
    const plan = this.plan;
    const parts: string[] = [];
    if (plan.order_by.length) parts.push(`ORDER BY ${plan.order_by.map((o) => `${key(o.key)}${o.direction === 'desc' ? ' DESC' : ''}`).join(', ')}`);
    if (plan.limit !== null) parts.push(`LIMIT ${plan.limit}`);
    if (plan.offset > 0) parts.push(`OFFSET ${plan.offset}`);
    return parts;
  } // prettier-ignore

  /** A table's own name, or `table_2` when an enclosing SELECT already reads it under that name. */
  private nameFor(table: string, ancestors: ReadonlySet<string>): string {
    if (!ancestors.has(table)) return table;
    return this.freshAlias(table);
  }

  /** An alias no table of the catalog and no other alias of the statement has. */
  freshAlias(base: string): string {
    const { tables, aliases } = this.ctx;
    let n = 2;
    while (tables[`${base}_${n}`] || aliases.has(`${base}_${n}`)) n++;
    aliases.add(`${base}_${n}`);
    return `${base}_${n}`;
  }
}
