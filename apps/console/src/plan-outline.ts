import type {
  Aggregate,
  ColumnRef,
  Condition,
  HavingCondition,
  Literal,
  MeasureExpr,
  OrderKey,
  Projection,
  QueryPlan,
  StreamWindow,
  ValueExpr,
} from '@nl2p/query-plan';

/** One line of a plan as people read it: what part of the query, and what it does. */
export interface PlanLine {
  label: string;
  text: string;
}

const AGGREGATE_WORDS: Record<Aggregate['fn'], string> = {
  count: 'number',
  sum: 'total',
  avg: 'average',
  min: 'lowest',
  max: 'highest',
};
const COMPARE_WORDS: Record<string, string> = {
  '=': 'is',
  '!=': 'is not',
  '<': 'below',
  '<=': 'at most',
  '>': 'above',
  '>=': 'at least',
};
const MATCH_WORDS = { contains: 'contains', starts_with: 'starts with', ends_with: 'ends with', equals: 'is' };

function ref(r: ColumnRef): string {
  const base = [r.table ? `${r.table}.${r.column}` : r.column, ...(r.path ?? [])].join('→');
  return r.part ? `${r.part.replace('_', ' ')} of ${base}` : base;
}

function value(e: ValueExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'column') return ref(e.ref);
  if (e.kind === 'elapsed') return `${e.unit}s from ${ref(e.from)} to ${ref(e.to)}`;
  return `${value(e.left)} ${e.op} ${value(e.right)}`;
}

function aggregate(a: Aggregate): string {
  if (a.fn === 'count') return a.arg ? `number of ${a.distinct ? 'distinct ' : ''}${value(a.arg)}` : 'number of rows';
  return `${AGGREGATE_WORDS[a.fn]} ${a.distinct ? 'distinct ' : ''}${a.arg ? value(a.arg) : ''}`.trim();
}

function literal(l: Literal): string {
  return l.kind === 'string' || l.kind === 'timestamp' ? `'${l.value}'` : String(l.value);
}

/** `number of rows where rating > 4 / number of rows`: each filtered aggregate with its condition. */
function measure(e: MeasureExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'aggregate') {
    const all = e.all_groups ? ' of all groups' : '';
    return e.filter
      ? `(${aggregate(e.aggregate)} where ${condition(e.filter)}${all})`
      : `${aggregate(e.aggregate)}${all}`;
  }
  const side = (x: MeasureExpr) => (x.kind === 'arith' ? `(${measure(x)})` : measure(x));
  return `${side(e.left)} ${e.op} ${side(e.right)}`;
}

function projection(p: Projection): string {
  const shown =
    p.kind === 'value'
      ? value(p.expr)
      : p.kind === 'aggregate'
        ? aggregate(p.aggregate)
        : p.kind === 'measure'
          ? measure(p.expr)
          : 'time bucket';
  return p.alias && p.alias !== shown ? `${shown} (as ${p.alias})` : shown;
}

/** A row condition in words; sub-plans are named by what they read, not spelled out. */
export function condition(c: Condition): string {
  switch (c.kind) {
    case 'compare':
      return `${value(c.left)} ${COMPARE_WORDS[c.op]} ${literal(c.value)}`;
    case 'in':
      return `${ref(c.column)} ${c.negated ? 'is none of' : 'is one of'} ${c.values.map(literal).join(', ')}`;
    case 'between':
      return `${ref(c.column)} between ${literal(c.low)} and ${literal(c.high)}`;
    case 'text':
      return `${ref(c.column)} ${MATCH_WORDS[c.match]} '${c.value}' (any case)`;
    case 'null':
      return `${ref(c.column)} is ${c.negated ? 'present' : 'missing'}`;
    case 'and':
    case 'or':
      return c.conditions
        .map((x) => (x.kind === 'and' || x.kind === 'or' ? `(${condition(x)})` : condition(x)))
        .join(` ${c.kind} `);
    case 'not':
      return `not (${condition(c.condition)})`;
    case 'in_subquery':
      return `${value(c.left)} ${c.negated ? 'never appears' : 'appears'} in ${c.subquery.plan.source}`;
    case 'exists':
      return `${c.negated ? 'no' : 'a'} matching row in ${c.subquery.plan.source}`;
    case 'compare_subquery': {
      const which = c.quantifier === 'all' ? 'every value' : c.quantifier === 'any' ? 'any value' : 'the value';
      return `${value(c.left)} ${COMPARE_WORDS[c.op]} ${which} from ${c.subquery.plan.source}`;
    }
  }
}

function having(h: HavingCondition): string {
  return `${aggregate(h.aggregate)} ${COMPARE_WORDS[h.op]} ${h.value}`;
}

function orderKey(k: OrderKey, plan: QueryPlan): string {
  if (k.kind === 'value') return value(k.expr);
  if (k.kind === 'aggregate') return aggregate(k.aggregate);
  const p = plan.select[k.index];
  return p ? (p.alias ?? projection(p)) : `column ${k.index + 1}`;
}

/** `10 seconds`, `1 day`: a count of a time unit (units are singular in the plan). */
function amount(n: number, unit: string): string {
  return `${n} ${unit.replace('_', ' ')}${n === 1 ? '' : 's'}`;
}

function windowText(w: StreamWindow): string {
  switch (w.kind) {
    case 'tumbling':
      return `every ${amount(w.size, w.unit)}, back to back`;
    case 'hopping':
      return `${amount(w.size, w.unit)} long, starting every ${amount(w.hop, w.unit)}`;
    case 'sliding':
      return `the last ${amount(w.size, w.unit)} at each row`;
    case 'session':
      return `sessions ending after ${amount(w.gap, w.unit)} without rows`;
    case 'count':
      return `every ${w.size} rows`;
    case 'state':
      return `from when ${condition(w.open)} until ${condition(w.emit)}`;
  }
}

/** Column references to the plan's own table read by the column's name alone (`temperature`, not `sensor_readings.temperature`). */
function withoutOwnTable(plan: QueryPlan): QueryPlan {
  return JSON.parse(JSON.stringify(plan), (_key, value: unknown) => {
    if (value && typeof value === 'object' && 'column' in value && 'table' in value && value.table === plan.source) {
      const rest: Record<string, unknown> = { ...value };
      delete rest.table;
      return rest;
    }
    return value;
  }) as QueryPlan;
}

/**
 * The typed query plan as a short table of sentences, in the order the query works: where the
 * rows come from, which rows, how they are grouped, what is shown, how they are sorted and cut.
 */
export function planOutline(input: QueryPlan): PlanLine[] {
  const plan = withoutOwnTable(input);
  const lines: PlanLine[] = [{ label: 'Reads', text: plan.source }];
  for (const j of plan.joins) {
    const on = j.on.map((o) => `${ref(o.left)} = ${ref(o.right)}`).join(' and ');
    lines.push({ label: j.kind === 'left' ? 'Adds, when present' : 'Joined with', text: `${j.table} on ${on}` });
  }
  if (plan.where) lines.push({ label: 'Keeps rows where', text: condition(plan.where) });
  if (plan.time_bucket) {
    const b = plan.time_bucket;
    lines.push({ label: 'In time buckets of', text: `${amount(b.size, b.unit)} of ${ref(b.column)}` });
  }
  if (plan.window) lines.push({ label: 'In windows', text: windowText(plan.window) });
  if (plan.group_by.length) lines.push({ label: 'For each', text: plan.group_by.map(ref).join(', ') });
  if (plan.extreme_per_group) {
    const x = plan.extreme_per_group;
    const per = x.per.length ? ` per ${x.per.map(ref).join(', ')}` : '';
    lines.push({
      label: 'Keeps',
      text: `the ${x.count > 1 ? `${x.count} rows` : 'row'} with the ${x.extreme === 'max' ? 'highest' : 'lowest'} ${value(x.by)}${per}`,
    });
  }
  if (plan.having.length) lines.push({ label: 'Keeps groups where', text: plan.having.map(having).join(' and ') });
  lines.push({
    label: plan.distinct ? 'Shows distinct' : 'Shows',
    text: plan.select.length ? plan.select.map(projection).join(', ') : 'every column',
  });
  for (const s of plan.set_operations) {
    lines.push({ label: s.op.replace('_', ' '), text: `the rows of a query reading ${s.plan.source}` });
  }
  if (plan.order_by.length) {
    const keys = plan.order_by.map(
      (o) => `${orderKey(o.key, plan)} ${o.direction === 'desc' ? 'high to low' : 'low to high'}`,
    );
    lines.push({ label: 'Sorted by', text: keys.join(', then ') });
  }
  if (plan.limit !== null) {
    lines.push({
      label: 'At most',
      text: `${plan.limit} row${plan.limit === 1 ? '' : 's'}${plan.offset ? `, after skipping ${plan.offset}` : ''}`,
    });
  }
  return lines;
}
