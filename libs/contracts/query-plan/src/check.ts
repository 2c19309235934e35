import type { Column } from '@nl2p/envelope';
import type {
  Aggregate,
  ColumnRef,
  Condition,
  Literal,
  OrderKey,
  Projection,
  QueryPlan,
  StreamWindow,
  ValueExpr,
} from './plan';

/** Columns of every table or stream a plan may name. */
export type CheckTables = Readonly<Record<string, readonly Column[]>>;

export type PlanCheck = { ok: true; plan: QueryPlan } | { ok: false; errors: string[] };

/** What a column's `data_type` says, across targets (DuckDB, PostgreSQL, veloFlux spellings). */
export type ValueClass = 'number' | 'text' | 'time' | 'boolean' | 'struct' | 'list' | 'other';

/**
 * One classifier for every target's type names: DuckDB (`DOUBLE`, `BIGINT`, `VARCHAR`,
 * `TIMESTAMP`; the adapter lowercases them), PostgreSQL's `format_type` (`double precision`,
 * `integer`, `text`, `timestamp without time zone`, `numeric(10,2)`) and the Manager's stream
 * describes (`float64`, `int64`, `string`, `bool`, `struct`, `list`, `timestamp`). Arrays are
 * tested first: `double[]` is a list, not a number.
 */
export function classifyType(dataType: string): ValueClass {
  const t = dataType.trim().toLowerCase();
  if (/^(list|array)\b|\[\d*\]$/.test(t)) return 'list';
  if (/^(struct|row|record)\b/.test(t)) return 'struct';
  if (/^(tinyint|smallint|integer|int|bigint|hugeint|uhugeint|ubigint|uinteger|usmallint|utinyint|double|float|real|decimal|numeric|int\d+|uint\d+|float\d+|double precision|serial|bigserial|smallserial)\b/.test(t)) return 'number';
  if (/^(varchar|text|string|char|character|bpchar|uuid|enum|name|citext)\b/.test(t)) return 'text';
  if (/^(timestamp|date|datetime|timestamptz|time)\b/.test(t)) return 'time';
  if (/^(bool|boolean)\b/.test(t)) return 'boolean';
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
  return [...new Set(names)]
    .map((n) => {
      const l = n.toLowerCase();
      const contains = l.includes(w) || w.includes(l);
      // An abbreviation (`qty` for quantity, `cust_id` for customer_id): same first letter, every
      // letter in order.
      const abbreviates = w.length >= 3 && w[0] === l[0] && isSubsequence(w, l);
      return { n, d: contains ? 0.5 : Math.min(distance(w, l), abbreviates ? 1.5 : Infinity) };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(w.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.n);
}

function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i += 1;
  return i === short.length;
}

/** `; did you mean a or b?` when something is close, else the full list (short catalogs help more than nothing). */
function suggestion(wanted: string, names: readonly string[], listLabel: string): string {
  const near = closestNames(wanted, names);
  if (near.length) return `; did you mean ${near.join(' or ')}?`;
  return names.length ? `; ${listLabel} ${[...new Set(names)].join(', ')}` : '';
}

/** Which literal kinds compare with which column classes ('other' is left to the engine). */
const LITERAL_FITS: Record<Literal['kind'], ValueClass[]> = {
  number: ['number', 'other'],
  // A quoted date compares with a time column on both SQL targets; text is the usual case.
  string: ['text', 'time', 'other'],
  boolean: ['boolean', 'other'],
  timestamp: ['time', 'other'],
};

function literalText(v: Literal): string {
  return v.kind === 'string' || v.kind === 'timestamp' ? `'${v.value}'` : String(v.value);
}

/**
 * Checks a plan against the catalog before any SQL exists (ARCHITECTURE §7a): every table,
 * column and struct field exists, aggregates and comparisons fit their columns' types, buckets use
 * a time column, grouping is consistent. Target-independent: what one target cannot say is its
 * compiler's refusal. Returns the plan normalised (each column's table filled in; plain values
 * selected beside aggregates added to GROUP BY) or every problem, each naming the closest real
 * names: the messages feed the repair prompt and are shown to people.
 */
export function checkPlan(plan: QueryPlan, tables: CheckTables): PlanCheck {
  const errors: string[] = [];
  const source = plan.source;
  const tableNames = Object.keys(tables);
  if (!tables[source]) {
    return { ok: false, errors: [`no table or stream '${source}'${suggestion(source, tableNames, 'there are')}`] };
  }

  /** Tables in scope so far: a join's `on` may name only the source, earlier joins and itself. */
  const inScope = [source];

  /** Resolves a column reference in `scope`; records an error and returns null when it does not exist. */
  const resolve = (ref: ColumnRef, scope: readonly string[] = inScope): (ColumnRef & { table: string; type: ValueClass }) | null => {
    const path = ref.path ?? [];
    const find = (table: string) => tables[table]?.find((c) => c.name === ref.column);
    let table = ref.table ?? null;
    if (table && !scope.includes(table)) {
      const known = tables[table] ? `'${table}' is not joined` : `there is no table '${table}'`;
      errors.push(`column ${table}.${ref.column}: ${known}; the query reads ${scope.join(', ')}`);
      return null;
    }
    if (!table) {
      // The source wins; otherwise the one joined table that has the column.
      const owners = scope.filter((t) => find(t));
      table = find(source) && scope.includes(source) ? source : owners.length === 1 ? owners[0] : null;
      if (!table && owners.length > 1) {
        errors.push(`column '${ref.column}' is in ${owners.join(' and ')}; say which table`);
        return null;
      }
    }
    let column = table ? find(table) : undefined;
    if (!table || !column) {
      const where = table ?? scope.join(' or ');
      const names = (table ? [table] : scope).flatMap((t) => (tables[t] ?? []).map((c) => c.name));
      errors.push(`no column '${ref.column}' in ${where}${suggestion(ref.column, names, 'its columns are')}`);
      return null;
    }
    const walked = [column.name];
    for (const field of path) {
      const next: Column | undefined = column.fields?.find((f) => f.name === field);
      if (!next) {
        const fields = column.fields?.map((f) => f.name) ?? [];
        errors.push(
          fields.length
            ? `column '${walked.join('->')}' has no field '${field}'${suggestion(field, fields, 'its fields are')}`
            : `column '${walked.join('->')}' has no field '${field}' (it is ${column.data_type}, not a struct)`,
        );
        return null;
      }
      column = next;
      walked.push(field);
    }
    return { table, column: ref.column, ...(path.length ? { path } : {}), type: classifyType(column.data_type) };
  };
  const normRef = (ref: ColumnRef, scope: readonly string[] = inScope): ColumnRef => {
    const r = resolve(ref, scope);
    return r ? { table: r.table, column: r.column, ...(r.path ? { path: r.path } : {}) } : ref;
  };
  /** The class of a per-row value; arithmetic must be over numbers. */
  const valueType = (e: ValueExpr): ValueClass => {
    if (e.kind === 'number') return 'number';
    if (e.kind === 'column') return resolve(e.ref)?.type ?? 'other';
    if (e.op === '/' && e.right.kind === 'number' && e.right.value === 0) errors.push(`'${describe(e)}' divides by zero`);
    for (const side of [e.left, e.right]) {
      const t = valueType(side);
      if (t !== 'number' && t !== 'other') errors.push(`'${describe(side)}' is ${t}, not a number, so it cannot be used in arithmetic (${describe(e)})`);
    }
    return 'number';
  };
  const normValue = (e: ValueExpr): ValueExpr =>
    e.kind === 'column' ? { kind: 'column', ref: normRef(e.ref) } : e.kind === 'arith' ? { ...e, left: normValue(e.left), right: normValue(e.right) } : e;
  const normAggregate = (a: Aggregate): Aggregate => {
    if (a.arg) {
      const t = valueType(a.arg);
      if ((a.fn === 'sum' || a.fn === 'avg') && t !== 'number' && t !== 'other') {
        errors.push(`${a.fn}() needs a numeric value; '${describe(a.arg)}' is ${t} (count(), min() and max() work on any column)`);
      }
      if ((a.fn === 'min' || a.fn === 'max') && (t === 'struct' || t === 'list')) {
        errors.push(`${a.fn}() cannot compare whole ${t}s; '${describe(a.arg)}' is a ${t}, pick one of its fields`);
      }
    } else if (a.fn !== 'count') errors.push(`${a.fn}() needs a column to aggregate`);
    return { ...a, arg: a.arg ? normValue(a.arg) : null };
  };
  /** A literal must be comparable with the column's type, or the engine fails at run time. */
  const checkLiteral = (subject: string, cls: ValueClass, v: Literal): void => {
    if (LITERAL_FITS[v.kind].includes(cls)) return;
    const want = cls === 'number' ? 'a number' : cls === 'text' ? 'a string' : cls === 'time' ? 'a timestamp' : cls === 'boolean' ? 'true or false' : `nothing: it is a ${cls}`;
    errors.push(`'${subject}' is ${cls}, so it cannot be compared with the ${v.kind} ${literalText(v)}; compare it with ${want}`);
  };
  const normCondition = (c: Condition, scope: readonly string[] = inScope): Condition => {
    switch (c.kind) {
      case 'compare': {
        checkLiteral(describe(c.left), valueType(c.left), c.value);
        return { ...c, left: normValue(c.left) };
      }
      case 'in':
      case 'between': {
        const t = resolve(c.column, scope)?.type;
        const values = c.kind === 'in' ? c.values : [c.low, c.high];
        if (t) values.forEach((v) => checkLiteral(describeRef(c.column), t, v));
        return { ...c, column: normRef(c.column, scope) };
      }
      case 'null':
        return { ...c, column: normRef(c.column, scope) };
      case 'text': {
        const t = resolve(c.column, scope)?.type;
        if (t && t !== 'text' && t !== 'other') errors.push(`'${describeRef(c.column)}' is ${t}, not text, so it cannot be matched as text; compare it instead`);
        return { ...c, column: normRef(c.column, scope) };
      }
      case 'and':
      case 'or':
        return { ...c, conditions: c.conditions.map((x) => normCondition(x, scope)) };
      case 'not':
        return { ...c, condition: normCondition(c.condition, scope) };
    }
  };

  // Joins, in order: each `on` pairs a column already in scope (left) with one of the joined
  // table (right, which defaults to that table).
  const joins = plan.joins.map((j) => {
    if (!tables[j.table]) {
      errors.push(`cannot join '${j.table}': no such table${suggestion(j.table, tableNames, 'there are')}`);
      return j;
    }
    if (inScope.includes(j.table)) {
      errors.push(`'${j.table}' is joined twice (or is the source); a table can be read once`);
      return j;
    }
    const before = [...inScope];
    inScope.push(j.table);
    const on = j.on.map((pair) => {
      // Written the other way round (joined table first)? Swap rather than fail.
      const swapped = pair.left.table === j.table || (pair.right.table != null && before.includes(pair.right.table));
      const o = swapped ? { left: pair.right, right: pair.left } : pair;
      const left = resolve(o.left, before);
      const right = resolve({ ...o.right, table: o.right.table ?? j.table }, [j.table]);
      if (left && right && left.type !== right.type && left.type !== 'other' && right.type !== 'other') {
        errors.push(`join ${j.table} on ${describeRef(o.left)} = ${describeRef(o.right)} compares ${left.type} with ${right.type}`);
      }
      return {
        left: left ? { table: left.table, column: left.column, ...(left.path ? { path: left.path } : {}) } : o.left,
        right: right ? { table: right.table, column: right.column, ...(right.path ? { path: right.path } : {}) } : o.right,
      };
    });
    return { ...j, on };
  });

  const select: Projection[] = plan.select.map((p) => {
    if (p.kind === 'value') {
      valueType(p.expr);
      return { ...p, expr: normValue(p.expr) };
    }
    if (p.kind === 'aggregate') return { ...p, aggregate: normAggregate(p.aggregate) };
    if (!plan.time_bucket) errors.push('the plan selects a time bucket but has no time_bucket to say which column and unit');
    return p;
  });
  const where = plan.where ? normCondition(plan.where) : null;
  const group_by = plan.group_by.map((r) => normRef(r));
  let time_bucket = plan.time_bucket;
  if (time_bucket) {
    const r = resolve(time_bucket.column);
    if (r && r.type !== 'time' && r.type !== 'other') {
      const times = inScope.flatMap((t) => (tables[t] ?? []).filter((c) => classifyType(c.data_type) === 'time').map((c) => c.name));
      errors.push(`time buckets need a date or time column; '${describeRef(time_bucket.column)}' is ${r.type}${times.length ? `; the time columns are ${times.join(', ')}` : ''}`);
    }
    if (time_bucket.as_date && ['second', 'minute', 'hour'].includes(time_bucket.unit)) {
      errors.push(`a bucket of ${time_bucket.size} ${time_bucket.unit}(s) cannot be shown as a date; as_date needs a unit of a day or longer`);
    }
    time_bucket = { ...time_bucket, column: normRef(time_bucket.column) };
  }
  if (plan.time_bucket && plan.window) errors.push('a plan has either a time bucket (SQL tables) or a window (streams), not both');
  const window = plan.window ? normWindow(plan.window) : null;
  function normWindow(w: StreamWindow): StreamWindow {
    if (w.kind !== 'state') return w;
    return { ...w, open: normCondition(w.open), emit: normCondition(w.emit), partition_by: w.partition_by.map((r) => normRef(r)) };
  }
  const having = plan.having.map((h) => ({ ...h, aggregate: normAggregate(h.aggregate) }));
  const order_by = plan.order_by.map((o) => ({ ...o, key: normOrder(o.key) }));
  function normOrder(k: OrderKey): OrderKey {
    if (k.kind === 'output') {
      if (k.index >= select.length) {
        errors.push(`ORDER BY output ${k.index + 1}, but the plan selects ${select.length ? `only ${select.length} column(s)` : 'every column (*), so outputs have no position'}`);
      }
      return k;
    }
    if (k.kind === 'value') {
      valueType(k.expr);
      return { ...k, expr: normValue(k.expr) };
    }
    return { ...k, aggregate: normAggregate(k.aggregate) };
  }

  // With aggregation (SQL's rule, and veloFlux's), every plain value shown or sorted on must be a
  // group key. A plain column shown is added to GROUP BY (the person asked to see it per group);
  // anything else not grouped is an error, since grouping by it would change the question.
  const hasAggregates =
    select.some((p) => p.kind === 'aggregate') || having.length > 0 || order_by.some((o) => o.key.kind === 'aggregate');
  const aggregated = hasAggregates || group_by.length > 0 || time_bucket !== null;
  const keys = [...group_by];
  const isKey = (r: ColumnRef) => keys.some((k) => sameRef(k, r, source));
  if (aggregated) {
    // HAVING or an aggregate ORDER BY makes the plan aggregated too, so `*` cannot stand beside them.
    if (select.length === 0) errors.push(`the plan ${having.length ? 'has HAVING' : 'groups or aggregates'} but selects every column (*); list the group keys and aggregates to show`);
    for (const p of select) {
      if (p.kind === 'value' && p.expr.kind === 'column' && !isKey(p.expr.ref)) keys.push(p.expr.ref);
    }
    const ungrouped = (e: ValueExpr) => columnsOf(e).filter((r) => !isKey(r));
    for (const p of select) {
      if (p.kind !== 'value' || p.expr.kind === 'column') continue;
      const loose = ungrouped(p.expr);
      if (loose.length) errors.push(`'${describe(p.expr)}' is shown beside aggregates or groups, but ${loose.map(describeRef).join(', ')} is neither aggregated nor grouped; aggregate it or add it to group_by`);
    }
    for (const o of order_by) {
      if (o.key.kind !== 'value') continue;
      const loose = ungrouped(o.key.expr);
      if (loose.length) errors.push(`ORDER BY ${describe(o.key.expr)}: with aggregates, sort by a group key or an aggregate; ${loose.map(describeRef).join(', ')} is neither`);
    }
  }
  if (plan.distinct) {
    for (const o of order_by) {
      if (o.key.kind === 'output') continue;
      const text = o.key.kind === 'value' ? describe(o.key.expr) : describeAggregate(o.key.aggregate);
      const shown = select.some((p) => (p.kind === 'value' ? describe(p.expr) : p.kind === 'aggregate' ? describeAggregate(p.aggregate) : '') === text);
      if (!shown) errors.push(`with distinct, ORDER BY ${text} must be one of the selected columns`);
    }
  }
  if (errors.length) return { ok: false, errors: [...new Set(errors)] };
  return { ok: true, plan: { ...plan, joins, select, where, group_by: keys, time_bucket, window, having, order_by } };
} // prettier-ignore

function sameRef(a: ColumnRef, b: ColumnRef, source: string): boolean {
  return (
    (a.table ?? source) === (b.table ?? source) &&
    a.column === b.column &&
    (a.path ?? []).join('.') === (b.path ?? []).join('.')
  );
}

function columnsOf(e: ValueExpr): ColumnRef[] {
  if (e.kind === 'column') return [e.ref];
  if (e.kind === 'number') return [];
  return [...columnsOf(e.left), ...columnsOf(e.right)];
}

function describeRef(r: ColumnRef): string {
  return [r.column, ...(r.path ?? [])].join('->');
}

function describe(e: ValueExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'column') return describeRef(e.ref);
  return `${describe(e.left)} ${e.op} ${describe(e.right)}`;
}

function describeAggregate(a: Aggregate): string {
  return `${a.fn}(${a.distinct ? 'distinct ' : ''}${a.arg ? describe(a.arg) : '*'})`;
}
