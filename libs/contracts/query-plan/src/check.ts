import type { Column } from '@nl2p/envelope';
import type { Aggregate, ColumnRef, Condition, OrderKey, Projection, QueryPlan, ValueExpr } from './plan';

/** Columns of every table or stream a plan may name. */
export type CheckTables = Readonly<Record<string, readonly Column[]>>;

export type PlanCheck = { ok: true; plan: QueryPlan } | { ok: false; errors: string[] };

/** What a column's `data_type` says, across targets (DuckDB, PostgreSQL, veloFlux spellings). */
export type ValueClass = 'number' | 'text' | 'time' | 'boolean' | 'struct' | 'list' | 'other';

export function classifyType(dataType: string): ValueClass {
  const t = dataType.trim().toLowerCase();
  if (/^(tinyint|smallint|integer|int|bigint|hugeint|u?bigint|u?integer|usmallint|utinyint|double|float|real|decimal|numeric|int\d+|uint\d+|float\d+|double precision)\b/.test(t)) return 'number';
  if (/^(varchar|text|string|char|character|bpchar|uuid|enum)/.test(t)) return 'text';
  if (/^(timestamp|date|datetime|timestamptz|time)/.test(t)) return 'time';
  if (/^(bool|boolean)\b/.test(t)) return 'boolean';
  if (/^struct/.test(t)) return 'struct';
  if (/^(list|array)|\[\]$/.test(t)) return 'list';
  return 'other';
} // prettier-ignore

/** A few close names (edit distance, shared prefix or containment), best first. */
export function closestNames(wanted: string, names: readonly string[], max = 3): string[] {
  const w = wanted.toLowerCase();
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0];
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = row[j];
        row[j] = next;
      }
    }
    return row[b.length];
  };
  return names
    .map((n) => {
      const l = n.toLowerCase();
      const contains = l.includes(w) || w.includes(l);
      return { n, d: contains ? 0.5 : distance(w, l) };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.n);
}

/**
 * Checks a plan against the catalog before any SQL exists (ARCHITECTURE §7a): every table,
 * column and struct field exists, aggregates fit their columns' types, buckets use a time column,
 * grouping is consistent. Returns the plan normalised (each column's table filled in; plain values
 * selected beside aggregates added to GROUP BY) or every problem, each naming the closest real
 * names: the messages feed the repair prompt and are shown to people.
 */
export function checkPlan(plan: QueryPlan, tables: CheckTables): PlanCheck {
  const errors: string[] = [];
  const source = plan.source;
  if (!tables[source]) {
    const near = closestNames(source, Object.keys(tables));
    return {
      ok: false,
      errors: [`no table or stream '${source}'${near.length ? `; did you mean ${near.join(' or ')}?` : `; there are ${Object.keys(tables).join(', ')}`}`],
    };
  }
  const inScope = [source];
  for (const j of plan.joins) {
    if (!tables[j.table]) {
      const near = closestNames(j.table, Object.keys(tables));
      errors.push(`cannot join '${j.table}': no such table${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`);
    } else if (inScope.includes(j.table)) {
      errors.push(`'${j.table}' is joined twice`);
    } else inScope.push(j.table);
  }

  /** Resolves a column reference; records an error and returns null when it does not exist. */
  const resolve = (ref: ColumnRef): (ColumnRef & { type: ValueClass }) | null => {
    const path = ref.path ?? [];
    const find = (table: string) => tables[table]?.find((c) => c.name === ref.column);
    let table = ref.table ?? null;
    if (table && !inScope.includes(table)) {
      errors.push(`column ${table}.${ref.column}: '${table}' is not the source or a joined table (${inScope.join(', ')})`);
      return null;
    }
    if (!table) {
      const owners = inScope.filter((t) => find(t));
      table = find(source) ? source : owners.length === 1 ? owners[0] : null;
      if (!table && owners.length > 1) {
        errors.push(`column '${ref.column}' is in ${owners.join(' and ')}; say which table`);
        return null;
      }
    }
    let column = table ? find(table) : undefined;
    if (!table || !column) {
      const names = inScope.flatMap((t) => (tables[t] ?? []).map((c) => c.name));
      const near = closestNames(ref.column, names);
      errors.push(`no column '${ref.column}' in ${inScope.join(' or ')}${near.length ? `; did you mean ${near.join(' or ')}?` : `; its columns are ${names.join(', ')}`}`);
      return null;
    }
    for (const field of path) {
      const next: Column | undefined = column.fields?.find((f) => f.name === field);
      if (!next) {
        const fields = column.fields?.map((f) => f.name) ?? [];
        errors.push(`column '${column.name}' has no field '${field}'${fields.length ? `; its fields are ${fields.join(', ')}` : ' (it is not a struct)'}`);
        return null;
      }
      column = next;
    }
    return { table, column: ref.column, ...(path.length ? { path } : {}), type: classifyType(column.data_type) };
  };
  const normRef = (ref: ColumnRef): ColumnRef => {
    const r = resolve(ref);
    return r ? { table: r.table, column: r.column, ...(r.path ? { path: r.path } : {}) } : ref;
  };
  const valueType = (e: ValueExpr): ValueClass => {
    if (e.kind === 'number') return 'number';
    if (e.kind === 'column') return resolve(e.ref)?.type ?? 'other';
    valueType(e.left);
    valueType(e.right);
    return 'number';
  };
  const normValue = (e: ValueExpr): ValueExpr =>
    e.kind === 'column' ? { kind: 'column', ref: normRef(e.ref) } : e.kind === 'arith' ? { ...e, left: normValue(e.left), right: normValue(e.right) } : e;
  const checkArith = (e: ValueExpr): void => {
    if (e.kind !== 'arith') return;
    for (const side of [e.left, e.right]) {
      if (side.kind === 'column') {
        const t = resolve(side.ref)?.type;
        if (t && t !== 'number') errors.push(`'${side.ref.column}' is not a number, so it cannot be used in arithmetic`);
      } else checkArith(side);
    }
  };
  const normAggregate = (a: Aggregate): Aggregate => {
    if (a.arg) {
      checkArith(a.arg);
      const t = valueType(a.arg);
      if ((a.fn === 'sum' || a.fn === 'avg') && t !== 'number' && t !== 'other') {
        errors.push(`${a.fn}() needs a numeric value; '${describe(a.arg)}' is ${t}`);
      }
    } else if (a.fn !== 'count') errors.push(`${a.fn}() needs a column`);
    return { ...a, arg: a.arg ? normValue(a.arg) : null };
  };
  const normCondition = (c: Condition): Condition => {
    switch (c.kind) {
      case 'compare':
        checkArith(c.left);
        return { ...c, left: normValue(c.left) };
      case 'in':
      case 'between':
      case 'null':
        return { ...c, column: normRef(c.column) };
      case 'text': {
        const t = resolve(c.column)?.type;
        if (t && t !== 'text' && t !== 'other') errors.push(`'${c.column.column}' is not text, so it cannot be matched as text`);
        return { ...c, column: normRef(c.column) };
      }
      case 'and':
      case 'or':
        return { ...c, conditions: c.conditions.map(normCondition) };
      case 'not':
        return { ...c, condition: normCondition(c.condition) };
    }
  };

  const select: Projection[] = plan.select.map((p) => {
    if (p.kind === 'value') {
      checkArith(p.expr);
      return { ...p, expr: normValue(p.expr) };
    }
    if (p.kind === 'aggregate') return { ...p, aggregate: normAggregate(p.aggregate) };
    if (!plan.time_bucket) errors.push('the plan selects a time bucket but has no time_bucket');
    return p;
  });
  const where = plan.where ? normCondition(plan.where) : null;
  const group_by = plan.group_by.map(normRef);
  let time_bucket = plan.time_bucket;
  if (time_bucket) {
    const r = resolve(time_bucket.column);
    if (r && r.type !== 'time' && r.type !== 'other') errors.push(`time buckets need a date or time column; '${time_bucket.column.column}' is ${r.type}`);
    time_bucket = { ...time_bucket, column: normRef(time_bucket.column) };
  }
  if (plan.time_bucket && plan.window) errors.push('a plan has either a time bucket (SQL tables) or a window (streams), not both');
  const having = plan.having.map((h) => ({ ...h, aggregate: normAggregate(h.aggregate) }));
  const order_by = plan.order_by.map((o) => ({ ...o, key: normOrder(o.key) }));
  function normOrder(k: OrderKey): OrderKey {
    if (k.kind === 'output') {
      if (k.index >= select.length) errors.push(`ORDER BY output ${k.index + 1} but the plan selects ${select.length} column(s)`);
      return k;
    }
    if (k.kind === 'value') return { ...k, expr: normValue(k.expr) };
    return { ...k, aggregate: normAggregate(k.aggregate) };
  }
  for (const j of plan.joins) for (const on of j.on) [on.left, on.right].forEach((r) => resolve(r));

  // With aggregation, every plain value shown must be a group key (SQL's rule, and veloFlux's).
  const aggregated =
    select.some((p) => p.kind === 'aggregate') || having.length > 0 || group_by.length > 0 || time_bucket !== null;
  const keys = [...group_by];
  if (aggregated) {
    for (const p of select) {
      if (p.kind !== 'value') continue;
      if (p.expr.kind !== 'column') {
        if (!select.some((q) => q.kind === 'aggregate')) continue;
        errors.push(`'${describe(p.expr)}' is shown beside aggregates but is neither aggregated nor grouped`);
        continue;
      }
      const ref = p.expr.ref;
      if (!keys.some((k) => sameRef(k, ref, source))) keys.push(ref);
    }
  }
  if (having.length && !aggregated) errors.push('HAVING needs grouping or aggregates');
  if (errors.length) return { ok: false, errors: [...new Set(errors)] };
  return { ok: true, plan: { ...plan, select, where, group_by: keys, time_bucket, having, order_by } };
} // prettier-ignore

function sameRef(a: ColumnRef, b: ColumnRef, source: string): boolean {
  return (
    (a.table ?? source) === (b.table ?? source) &&
    a.column === b.column &&
    (a.path ?? []).join('.') === (b.path ?? []).join('.')
  );
}

function describe(e: ValueExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'column') return [e.ref.column, ...(e.ref.path ?? [])].join('->');
  return `${describe(e.left)} ${e.op} ${describe(e.right)}`;
}
