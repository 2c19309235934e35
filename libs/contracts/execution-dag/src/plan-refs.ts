import type {
  Aggregate,
  ColumnRef,
  Condition,
  HavingCondition,
  MeasureExpr,
  OrderKey,
  Projection,
  TimeBucket,
  ValueExpr,
} from '@nl2p/query-plan';

/**
 * Rewriting every column reference of a plan's parts, one function per part. The decomposer
 * collects references (which tables a condition touches) and renames them (a scan's output in
 * the combine, a source's own table name inside a scan) with the same walk.
 */
export type RefMap = (ref: ColumnRef) => ColumnRef;

export function mapExpr(e: ValueExpr, f: RefMap): ValueExpr {
  if (e.kind === 'column') return { kind: 'column', ref: f(e.ref) };
  if (e.kind === 'number') return e;
  if (e.kind === 'elapsed') return { ...e, from: f(e.from), to: f(e.to) };
  return { ...e, left: mapExpr(e.left, f), right: mapExpr(e.right, f) };
}

export function mapAggregate(a: Aggregate, f: RefMap): Aggregate {
  return { ...a, arg: a.arg ? mapExpr(a.arg, f) : null };
}

/** Conditions holding sub-plans are refused before this runs (their refs are another scope's). */
export function mapCondition(c: Condition, f: RefMap): Condition {
  switch (c.kind) {
    case 'compare':
      return { ...c, left: mapExpr(c.left, f) };
    case 'in':
    case 'between':
    case 'text':
    case 'null':
      return { ...c, column: f(c.column) };
    case 'and':
    case 'or':
      return { ...c, conditions: c.conditions.map((x) => mapCondition(x, f)) };
    case 'not':
      return { ...c, condition: mapCondition(c.condition, f) };
    case 'in_subquery':
    case 'exists':
    case 'compare_subquery':
      throw new Error(`a ${c.kind} condition cannot be rewritten outside its own plan`);
  }
}

export function mapProjection(p: Projection, f: RefMap): Projection {
  if (p.kind === 'value') return { ...p, expr: mapExpr(p.expr, f) };
  if (p.kind === 'aggregate') return { ...p, aggregate: mapAggregate(p.aggregate, f) };
  if (p.kind === 'measure') return { ...p, expr: mapMeasure(p.expr, f) };
  return p;
}

/** A measure's aggregates and the conditions they are filtered by. */
export function mapMeasure(e: MeasureExpr, f: RefMap): MeasureExpr {
  if (e.kind === 'number') return e;
  if (e.kind === 'arith') return { ...e, left: mapMeasure(e.left, f), right: mapMeasure(e.right, f) };
  return { ...e, aggregate: mapAggregate(e.aggregate, f), ...(e.filter ? { filter: mapCondition(e.filter, f) } : {}) };
}

export function mapOrderKey(k: OrderKey, f: RefMap): OrderKey {
  if (k.kind === 'value') return { ...k, expr: mapExpr(k.expr, f) };
  if (k.kind === 'aggregate') return { ...k, aggregate: mapAggregate(k.aggregate, f) };
  return k;
}

export function mapHaving(h: HavingCondition, f: RefMap): HavingCondition {
  return { ...h, aggregate: mapAggregate(h.aggregate, f) };
}

export function mapBucket(b: TimeBucket, f: RefMap): TimeBucket {
  return { ...b, column: f(b.column) };
}

/** Every reference a part holds, found by mapping with a collector. */
export function refsOf(visit: (f: RefMap) => unknown): ColumnRef[] {
  const refs: ColumnRef[] = [];
  visit((r) => {
    refs.push(r);
    return r;
  });
  return refs;
}

/** The top-level AND's parts: each can be pushed to a scan or kept for after the combine on its own. */
export function conjuncts(c: Condition | null): Condition[] {
  if (!c) return [];
  return c.kind === 'and' ? c.conditions.flatMap(conjuncts) : [c];
}

export function andOf(conditions: Condition[]): Condition | null {
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions };
}

/** Whether a condition holds a sub-plan anywhere. */
export function hasSubplan(c: Condition): boolean {
  switch (c.kind) {
    case 'in_subquery':
    case 'exists':
    case 'compare_subquery':
      return true;
    case 'and':
    case 'or':
      return c.conditions.some(hasSubplan);
    case 'not':
      return hasSubplan(c.condition);
    default:
      return false;
  }
}
