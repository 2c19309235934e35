import type {
  Aggregate,
  ColumnRef,
  Condition,
  ExtremePerGroup,
  Literal,
  MeasureExpr,
  OrderKey,
  Projection,
  QueryPlanInput,
  ValueExpr,
} from '@nl2p/query-plan';
import { parseQueryPlan } from '@nl2p/query-plan';

/**
 * A plan's clauses in SQL-like words, so a corpus says what a request means the way a reader
 * would (`temperature > 30`, `avg(temperature)`), not as nested objects.
 */
export interface PlanText {
  from: string;
  select: string;
  where: string;
  groupBy: string;
  having: string;
  orderBy: string;
  limit: number | null;
  /** Rows skipped before the limit (`the second highest`). */
  offset: number;
  /** The rows holding their group's extreme: `max(age) per team`, `top 3 min(price) per category`. */
  extreme: string;
  distinct: boolean;
  time: string;
}

export function planText(input: QueryPlanInput | null): PlanText | null {
  if (!input) return null;
  const plan = parseQueryPlan(input);
  const tw = plan.time_bucket;
  const w = plan.window;
  return {
    from: [plan.source, ...plan.joins.map((j) => `JOIN ${j.table}`)].join(' '),
    select: plan.select.map(projectionText).join(', '),
    where: plan.where ? conditionText(plan.where) : '',
    groupBy: plan.group_by.map(refText).join(', '),
    having: plan.having.map((h) => `${aggregateText(h.aggregate)} ${h.op} ${h.value}`).join(' AND '),
    orderBy: plan.order_by.map((o) => `${orderText(o.key)} ${o.direction ?? 'asc'}`).join(', '),
    limit: plan.limit,
    offset: plan.offset,
    extreme: extremeText(plan.extreme_per_group),
    distinct: plan.distinct,
    time: tw
      ? `bucket ${tw.size} ${tw.unit} of ${refText(tw.column)}${tw.as_date ? ' as date' : ''}`
      : w
        ? `${w.kind} window${'size' in w ? ` ${w.size}` : ''}${'unit' in w ? ` ${w.unit}` : ''}`
        : '',
  };
}

/** `table.column->field`, a date part as `day_of_week(ordered_at)`. */
export function refText(r: ColumnRef): string {
  const text = [r.table ? `${r.table}.` : '', [r.column, ...(r.path ?? [])].join('->')].join('');
  return r.part ? `${r.part}(${text})` : text;
}

export function exprText(e: ValueExpr): string {
  if (e.kind === 'column') return refText(e.ref);
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'elapsed') return `${e.unit}s(${refText(e.from)} -> ${refText(e.to)})`;
  return `(${exprText(e.left)} ${e.op} ${exprText(e.right)})`;
}

export function aggregateText(a: Aggregate): string {
  return `${a.fn}(${a.distinct ? 'DISTINCT ' : ''}${a.arg ? exprText(a.arg) : '*'})`;
}

/** A literal; a moment relative to the run day as the SQL targets compute it (`today - 30 day`, `start of month - 6 month`). */
function literalText(l: Literal): string {
  if (l.kind === 'timestamp' && l.relative) {
    const r = l.relative;
    const anchor = r.start_of
      ? `start of ${r.start_of}`
      : ['second', 'minute', 'hour'].includes(r.unit)
        ? 'now'
        : 'today';
    return r.amount === 0 ? anchor : `${anchor} ${r.amount < 0 ? '-' : '+'} ${Math.abs(r.amount)} ${r.unit}`;
  }
  return l.kind === 'string' || l.kind === 'timestamp' ? `'${l.value}'` : String(l.value);
}

export function conditionText(c: Condition): string {
  switch (c.kind) {
    case 'compare':
      return `${exprText(c.left)} ${c.op} ${literalText(c.value)}`;
    case 'in':
      return `${refText(c.column)} ${c.negated ? 'NOT IN' : 'IN'} (${c.values.map(literalText).join(', ')})`;
    case 'between':
      return `${refText(c.column)} BETWEEN ${literalText(c.low)} AND ${literalText(c.high)}`;
    case 'and':
      return c.conditions.map(conditionText).join(' AND ');
    case 'or':
      return `(${c.conditions.map(conditionText).join(' OR ')})`;
    case 'not':
      return `NOT (${conditionText(c.condition)})`;
    case 'null':
      return `${refText(c.column)} IS ${c.negated ? 'NOT ' : ''}NULL`;
    case 'text':
      return `${refText(c.column)} ${c.match} '${c.value}'`;
    case 'in_subquery':
      return `${exprText(c.left)} ${c.negated ? 'NOT IN' : 'IN'} (sub-plan)`;
    case 'exists': {
      // The sub-plan's table and what ties it to the outer row: `NOT EXISTS (writes: authorid = authorid)`.
      const tie = c.subquery.correlate.map((k) => `${refText(k.inner)} = ${refText(k.outer)}`).join(' AND ');
      const where = c.subquery.plan.where ? ` WHERE ${conditionText(c.subquery.plan.where)}` : '';
      const joined = c.subquery.plan.joins.map((j) => ` JOIN ${j.table}`).join('');
      return `${c.negated ? 'NOT ' : ''}EXISTS (${c.subquery.plan.source}${joined}: ${tie}${where})`;
    }
    case 'compare_subquery': {
      // The sub-plan in SQL-like words: `price > (SELECT avg(price) FROM products)`.
      const sub = c.subquery.plan;
      const quantifier = c.quantifier && c.quantifier !== 'single' ? `${c.quantifier.toUpperCase()} ` : '';
      const where = sub.where ? ` WHERE ${conditionText(sub.where)}` : '';
      return `${exprText(c.left)} ${c.op} ${quantifier}(SELECT ${sub.select.map(projectionText).join(', ')} FROM ${sub.source}${where})`;
    }
  }
}

function projectionText(p: Projection): string {
  const as = p.alias ? ` AS ${p.alias}` : '';
  if (p.kind === 'value') return exprText(p.expr) + as;
  if (p.kind === 'aggregate') return aggregateText(p.aggregate) + as;
  if (p.kind === 'measure') return measureText(p.expr) + as;
  return `bucket${as}`;
}

/** `count(*) FILTER (WHERE rating > 4) / count(*)`: a measure as SQL says a filtered aggregate. */
function measureText(e: MeasureExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'aggregate') return `${aggregateText(e.aggregate)}${e.filter ? ` FILTER (WHERE ${conditionText(e.filter)})` : ''}${e.all_groups ? ' OVER ALL' : ''}`;
  const side = (x: MeasureExpr) => (x.kind === 'arith' ? `(${measureText(x)})` : measureText(x));
  return `${side(e.left)} ${e.op} ${side(e.right)}`;
} // prettier-ignore

function orderText(k: OrderKey): string {
  if (k.kind === 'aggregate') return aggregateText(k.aggregate);
  if (k.kind === 'value') return exprText(k.expr);
  return `#${k.index}`;
}

function extremeText(x: ExtremePerGroup | null): string {
  if (!x) return '';
  const top = x.count > 1 ? `top ${x.count} ` : '';
  return `${top}${x.extreme}(${exprText(x.by)})${x.per.length ? ` per ${x.per.map(refText).join(', ')}` : ''}`;
}
