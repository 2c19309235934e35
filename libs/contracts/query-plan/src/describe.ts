import type { Aggregate, ColumnRef, Condition, MeasureExpr, QueryPlan, Subquery, ValueExpr } from './plan';

/** How a column reads in messages: `location->lat`, `year(ordered_at)`. */
export function describeRef(r: ColumnRef): string {
  const base = [r.column, ...(r.path ?? [])].join('->');
  return r.part ? `${r.part}(${base})` : base;
}

export function describe(e: ValueExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'column') return describeRef(e.ref);
  if (e.kind === 'elapsed') return `${e.unit}s from ${describeRef(e.from)} to ${describeRef(e.to)}`;
  return `${describe(e.left)} ${e.op} ${describe(e.right)}`;
}

export function describeAggregate(a: Aggregate): string {
  return `${a.fn}(${a.distinct ? 'distinct ' : ''}${a.arg ? describe(a.arg) : '*'})`;
}

/** `count(*) where … / count(*)`: a measure in messages, each filtered aggregate marked. */
export function describeMeasure(e: MeasureExpr): string {
  if (e.kind === 'number') return String(e.value);
  if (e.kind === 'aggregate')
    return `${describeAggregate(e.aggregate)}${e.filter ? ' of the rows filtered' : ''}${e.all_groups ? ' of all groups' : ''}`;
  const side = (x: MeasureExpr) => (x.kind === 'arith' ? `(${describeMeasure(x)})` : describeMeasure(x));
  return `${side(e.left)} ${e.op} ${side(e.right)}`;
}

/** The aggregates a measure computes from, with the filter each is taken over, in order. */
export function measureParts(e: MeasureExpr): { aggregate: Aggregate; filter: Condition | null }[] {
  if (e.kind === 'number') return [];
  if (e.kind === 'aggregate') return [{ aggregate: e.aggregate, filter: e.filter ?? null }];
  return [...measureParts(e.left), ...measureParts(e.right)];
}

/** Same table (the source when absent), column, struct path and date part. */
export function sameRef(a: ColumnRef, b: ColumnRef, source: string): boolean {
  return (
    (a.table ?? source) === (b.table ?? source) &&
    a.column === b.column &&
    (a.path ?? []).join('.') === (b.path ?? []).join('.') &&
    (a.part ?? null) === (b.part ?? null)
  );
}

export function columnsOf(e: ValueExpr): ColumnRef[] {
  if (e.kind === 'column') return [e.ref];
  if (e.kind === 'number') return [];
  if (e.kind === 'elapsed') return [e.from, e.to];
  return [...columnsOf(e.left), ...columnsOf(e.right)];
}

/** Every sub-plan a condition holds, outermost first (not those inside the sub-plans). */
export function subqueriesOf(c: Condition | null): Subquery[] {
  if (!c) return [];
  switch (c.kind) {
    case 'in_subquery':
    case 'exists':
    case 'compare_subquery':
      return [c.subquery];
    case 'and':
    case 'or':
      return c.conditions.flatMap(subqueriesOf);
    case 'not':
      return subqueriesOf(c.condition);
    default:
      return [];
  }
}

/** Every plan in a plan's tree: itself, its sub-plans (in WHERE and in a measure's filters) and set operands, at any depth. */
export function plansIn(plan: QueryPlan): QueryPlan[] {
  const filters = plan.select.flatMap((p) => (p.kind === 'measure' ? measureParts(p.expr).map((m) => m.filter) : []));
  return [
    plan,
    ...[plan.where, ...filters].flatMap((c) => subqueriesOf(c)).flatMap((s) => plansIn(s.plan)),
    ...plan.set_operations.flatMap((s) => plansIn(s.plan)),
  ];
}
