import { ConditionChecker, comparable, type CheckedSubquery } from './check-conditions';
import { PlanScope, refOf, type CheckTables } from './check-scope';
import {
  columnsOf,
  describe,
  describeAggregate,
  describeMeasure,
  describeRef,
  measureParts,
  sameRef,
} from './describe';
import { suggestion, type ValueClass } from './names';
import type {
  Aggregate,
  ColumnRef,
  ExtremePerGroup,
  Join,
  MeasureExpr,
  OrderKey,
  Projection,
  QueryPlan,
  StreamWindow,
  Subquery,
  ValueExpr,
} from './plan';

export { classifyType, closestNames, type ValueClass } from './names';
export type { CheckTables } from './check-scope';

export type PlanCheck = { ok: true; plan: QueryPlan } | { ok: false; errors: string[] };

/**
 * Checks a plan against the catalog before any SQL exists: every table, column and struct field
 * exists (in sub-plans and set operands too), aggregates and comparisons fit their columns'
 * types, buckets use a time column, grouping is consistent, a sub-plan compared with a value
 * gives one column of that value's kind, set operands line up. Target-independent: what one
 * target cannot say is its compiler's refusal. Returns the plan normalised (each column's table
 * filled in; plain values selected beside aggregates added to GROUP BY) or every problem, each
 * naming the closest real names: the messages feed the repair prompt and are shown to people.
 */
export function checkPlan(plan: QueryPlan, tables: CheckTables): PlanCheck {
  const errors: string[] = [];
  const checked = new PlanChecker(tables, errors).check(plan);
  if (errors.length || !checked) return { ok: false, errors: [...new Set(errors)] };
  return { ok: true, plan: checked.plan };
}

interface CheckedPlan {
  plan: QueryPlan;
  scope: PlanScope;
  /** The class of each output column; null when the plan selects every column (`*`). */
  outputs: ValueClass[] | null;
}

class PlanChecker {
  constructor(
    private readonly tables: CheckTables,
    private readonly errors: string[],
  ) {}

  /** One plan (the whole plan, a sub-plan, or a set operand); null when its source does not exist. */
  check(plan: QueryPlan): CheckedPlan | null {
    const names = Object.keys(this.tables);
    if (!this.tables[plan.source]) {
      this.errors.push(`no table or stream '${plan.source}'${suggestion(plan.source, names, 'there are')}`);
      return null;
    }
    const scope = new PlanScope(this.tables, plan.source, this.errors);
    const conditions = new ConditionChecker(scope, (s, outer) => this.subquery(s, outer));
    const joins = plan.joins.map((j) => this.join(j, scope));
    const select = plan.select.map((p) => this.projection(p, scope, plan, conditions));
    const where = plan.where ? conditions.check(plan.where) : null;
    const group_by = plan.group_by.map((r) => scope.normRef(r));
    const time_bucket = this.timeBucket(plan, scope);
    if (plan.time_bucket && plan.window) this.errors.push('a plan has either a time bucket (SQL tables) or a window (streams), not both');
    const window = plan.window ? this.window(plan.window, scope, conditions) : null;
    const having = plan.having.map((h) => ({ ...h, aggregate: this.aggregate(h.aggregate, scope) }));
    const order_by = plan.order_by.map((o) => ({ ...o, key: this.orderKey(o.key, scope, select) }));
    const extreme_per_group = plan.extreme_per_group ? this.extreme(plan.extreme_per_group, scope) : null;
    const normalised: QueryPlan = { ...plan, joins, select, where, group_by, time_bucket, window, having, order_by, extreme_per_group };
    const keys = this.groupKeys(normalised, scope);
    this.distinctOrder(normalised);
    if (plan.offset > 0 && plan.order_by.length === 0) this.errors.push(`OFFSET ${plan.offset} skips rows in an order, but the plan has no order_by; say what to sort on`);
    const outputs = outputClasses(select, scope);
    const set_operations = this.setOperations(normalised, outputs);
    return { plan: { ...normalised, group_by: keys, set_operations }, scope, outputs };
  } // prettier-ignore

  /** A join's `on` pairs a column already in scope (left) with one of the joined table (right, by default). */
  private join(j: Join, scope: PlanScope): Join {
    if (!this.tables[j.table]) {
      this.errors.push(`cannot join '${j.table}': no such table${suggestion(j.table, Object.keys(this.tables), 'there are')}`);
      return j;
    }
    if (scope.inScope.includes(j.table)) {
      this.errors.push(`'${j.table}' is joined twice (or is the source); a table can be read once`);
      return j;
    }
    const before = [...scope.inScope];
    scope.inScope.push(j.table);
    const on = j.on.map((pair) => {
      // Written the other way round (joined table first)? Swap rather than fail.
      const swapped = pair.left.table === j.table || (pair.right.table != null && before.includes(pair.right.table));
      const o = swapped ? { left: pair.right, right: pair.left } : pair;
      const left = scope.resolve(o.left, before);
      const right = scope.resolve({ ...o.right, table: o.right.table ?? j.table }, [j.table]);
      if (left && right && !comparable(left.type, right.type)) {
        this.errors.push(`join ${j.table} on ${describeRef(o.left)} = ${describeRef(o.right)} compares ${left.type} with ${right.type}`);
      }
      return { left: left ? refOf(left) : o.left, right: right ? refOf(right) : o.right };
    });
    return { ...j, on };
  } // prettier-ignore

  private projection(p: Projection, scope: PlanScope, plan: QueryPlan, conditions: ConditionChecker): Projection {
    if (p.kind === 'value') {
      scope.valueType(p.expr);
      return { ...p, expr: scope.normValue(p.expr) };
    }
    if (p.kind === 'aggregate') return { ...p, aggregate: this.aggregate(p.aggregate, scope) };
    if (p.kind === 'measure') {
      const parts = measureParts(p.expr);
      if (!parts.length)
        this.errors.push(
          `'${describeMeasure(p.expr)}' computes nothing from the rows; a measure needs at least one aggregate (show a number as a value instead)`,
        );
      if (plan.extreme_per_group && parts.some((m) => m.filter))
        this.errors.push(
          `'${describeMeasure(p.expr)}' filters its aggregates, which cannot stand beside the rows holding each group's extreme; filter the rows (where) instead`,
        );
      return { ...p, expr: this.measure(p.expr, scope, conditions) };
    }
    if (!plan.time_bucket)
      this.errors.push('the plan selects a time bucket but has no time_bucket to say which column and unit');
    return p;
  }

  /** Each aggregate of a measure checked as an aggregate, each filter as a row condition. */
  private measure(e: MeasureExpr, scope: PlanScope, conditions: ConditionChecker): MeasureExpr {
    if (e.kind === 'number') return e;
    if (e.kind === 'arith') return { ...e, left: this.measure(e.left, scope, conditions), right: this.measure(e.right, scope, conditions) };
    const filter = e.filter ? conditions.check(e.filter) : null;
    // The whole of every group is a sum of the groups' counts or sums (or their min, max): an average is not.
    if (e.all_groups && (e.aggregate.fn === 'avg' || e.aggregate.distinct)) this.errors.push(`${describeAggregate(e.aggregate)} of all groups cannot be made of each group's (only count, sum, min and max add up); compute it per group`);
    return { kind: 'aggregate', aggregate: this.aggregate(e.aggregate, scope), ...(filter ? { filter } : {}), ...(e.all_groups ? { all_groups: true } : {}) };
  } // prettier-ignore

  private aggregate(a: Aggregate, scope: PlanScope): Aggregate {
    if (a.arg) {
      const t = scope.valueType(a.arg);
      if ((a.fn === 'sum' || a.fn === 'avg') && t !== 'number' && t !== 'other') {
        this.errors.push(`${a.fn}() needs a numeric value; '${describe(a.arg)}' is ${t} (count(), min() and max() work on any column)`);
      }
      if ((a.fn === 'min' || a.fn === 'max') && (t === 'struct' || t === 'list')) {
        this.errors.push(`${a.fn}() cannot compare whole ${t}s; '${describe(a.arg)}' is a ${t}, pick one of its fields`);
      }
    } else if (a.fn !== 'count') this.errors.push(`${a.fn}() needs a column to aggregate`);
    return { ...a, arg: a.arg ? scope.normValue(a.arg) : null };
  } // prettier-ignore

  private timeBucket(plan: QueryPlan, scope: PlanScope): QueryPlan['time_bucket'] {
    const b = plan.time_bucket;
    if (!b) return null;
    const r = scope.resolve(b.column);
    if (r && r.type !== 'time' && r.type !== 'other') {
      const times = scope.timeColumns();
      this.errors.push(`time buckets need a date or time column; '${describeRef(b.column)}' is ${r.type}${times.length ? `; the time columns are ${times.join(', ')}` : ''}`);
    }
    if (b.as_date && ['second', 'minute', 'hour'].includes(b.unit)) {
      this.errors.push(`a bucket of ${b.size} ${b.unit}(s) cannot be shown as a date; as_date needs a unit of a day or longer`);
    }
    return { ...b, column: scope.normRef(b.column) };
  } // prettier-ignore

  private window(w: StreamWindow, scope: PlanScope, conditions: ConditionChecker): StreamWindow {
    if (w.kind !== 'state') return w;
    return { ...w, open: conditions.check(w.open), emit: conditions.check(w.emit), partition_by: w.partition_by.map((r) => scope.normRef(r)) };
  } // prettier-ignore

  private orderKey(k: OrderKey, scope: PlanScope, select: Projection[]): OrderKey {
    if (k.kind === 'output') {
      if (k.index >= select.length) {
        this.errors.push(`ORDER BY output ${k.index + 1}, but the plan selects ${select.length ? `only ${select.length} column(s)` : 'every column (*), so outputs have no position'}`);
      }
      return k;
    }
    if (k.kind === 'value') {
      scope.valueType(k.expr);
      return { ...k, expr: scope.normValue(k.expr) };
    }
    return { ...k, aggregate: this.aggregate(k.aggregate, scope) };
  } // prettier-ignore

  /**
   * With aggregation (SQL's rule, and veloFlux's), every plain value shown or sorted on must be a
   * group key. A plain column shown is added to GROUP BY (the person asked to see it per group);
   * anything else not grouped is an error, since grouping by it would change the question.
   */
  private groupKeys(plan: QueryPlan, scope: PlanScope): ColumnRef[] {
    const { select, having, order_by } = plan;
    const keys = [...plan.group_by];
    if (!isAggregated(plan)) return keys;
    const isKey = (r: ColumnRef) => keys.some((k) => sameRef(k, r, scope.source));
    // HAVING or an aggregate ORDER BY makes the plan aggregated too, so `*` cannot stand beside them.
    if (select.length === 0) this.errors.push(`the plan ${having.length ? 'has HAVING' : 'groups or aggregates'} but selects every column (*); list the group keys and aggregates to show`);
    for (const p of select) {
      if (p.kind === 'value' && p.expr.kind === 'column' && !isKey(p.expr.ref)) keys.push(p.expr.ref);
    }
    const ungrouped = (e: ValueExpr) => columnsOf(e).filter((r) => !isKey(r));
    for (const p of select) {
      if (p.kind !== 'value' || p.expr.kind === 'column') continue;
      const loose = ungrouped(p.expr);
      if (loose.length) this.errors.push(`'${describe(p.expr)}' is shown beside aggregates or groups, but ${loose.map(describeRef).join(', ')} is neither aggregated nor grouped; aggregate it or add it to group_by`);
    }
    for (const o of order_by) {
      if (o.key.kind !== 'value') continue;
      const loose = ungrouped(o.key.expr);
      if (loose.length) this.errors.push(`ORDER BY ${describe(o.key.expr)}: with aggregates, sort by a group key or an aggregate; ${loose.map(describeRef).join(', ')} is neither`);
    }
    return keys;
  } // prettier-ignore

  private distinctOrder(plan: QueryPlan): void {
    if (!plan.distinct) return;
    for (const o of plan.order_by) {
      if (o.key.kind === 'output') continue;
      const text = o.key.kind === 'value' ? describe(o.key.expr) : describeAggregate(o.key.aggregate);
      const shown = plan.select.some((p) => (p.kind === 'value' ? describe(p.expr) : p.kind === 'aggregate' ? describeAggregate(p.aggregate) : p.kind === 'measure' ? describeMeasure(p.expr) : '') === text);
      if (!shown) this.errors.push(`with distinct, ORDER BY ${text} must be one of the selected columns`);
    }
  } // prettier-ignore

  /** The rows holding their group's extreme: `per` and `by` name columns in scope; `by` can be ordered. */
  private extreme(x: ExtremePerGroup, scope: PlanScope): ExtremePerGroup {
    const t = scope.valueType(x.by);
    if (t === 'struct' || t === 'list' || t === 'boolean') this.errors.push(`the ${x.extreme} of '${describe(x.by)}' means nothing: it is a ${t}; pick a number, text or time`);
    return { ...x, per: x.per.map((r) => scope.normRef(r)), by: scope.normValue(x.by) };
  } // prettier-ignore

  /** A sub-plan in its own scope; each correlation pair ties a column of the outer row to one of the sub-plan's. */
  private subquery(s: Subquery, outer: PlanScope): CheckedSubquery {
    const inner = this.check(s.plan);
    if (!inner) return { subquery: s, outputs: null, known: false };
    if (s.correlate.length && s.plan.set_operations.length) this.errors.push(`a sub-plan with set operations cannot be tied to the outer row; tie each of its plans instead`);
    const correlate = s.correlate.map((pair) => {
      const o = outer.resolve(pair.outer);
      const i = inner.scope.resolve(pair.inner);
      if (o && i && !comparable(o.type, i.type)) this.errors.push(`the sub-plan on ${s.plan.source} ties ${describeRef(pair.inner)} (${i.type}) to ${describeRef(pair.outer)} (${o.type}); tie values of one kind`);
      return { outer: o ? refOf(o) : pair.outer, inner: i ? refOf(i) : pair.inner };
    });
    return { subquery: { plan: inner.plan, correlate }, outputs: inner.outputs, known: true };
  } // prettier-ignore

  /**
   * Set operands: plain plans (no order, limit or set operations of their own: the combined rows
   * are sorted and limited once) showing as many columns as this plan, each of the same kind.
   * The combined rows have no table, so they are sorted by output position only.
   */
  private setOperations(plan: QueryPlan, outputs: ValueClass[] | null): QueryPlan['set_operations'] {
    if (!plan.set_operations.length) return [];
    if (outputs === null) this.errors.push(`a plan combined with ${plan.set_operations[0].op} must list its columns, not select every column (*)`);
    for (const o of plan.order_by) if (o.key.kind !== 'output') this.errors.push(`combined rows (${plan.set_operations.map((s) => s.op).join(', ')}) are sorted by output position only; sort on an output column`);
    return plan.set_operations.map(({ op, plan: operand }) => {
      const arm = this.check(operand);
      if (!arm) return { op, plan: operand };
      const p = arm.plan;
      if (p.order_by.length || p.limit !== null || p.offset > 0) this.errors.push(`the plan on ${p.source} after ${op} has its own order or limit; order and limit the combined rows in the first plan`);
      if (p.set_operations.length) this.errors.push(`the plan on ${p.source} after ${op} has set operations of its own; list every set operation in the first plan, in order`);
      if (outputs && arm.outputs === null) this.errors.push(`the plan on ${p.source} after ${op} selects every column (*); list the ${outputs.length} column(s) to combine`);
      if (outputs && arm.outputs && arm.outputs.length !== outputs.length) this.errors.push(`${op} combines ${outputs.length} column(s) with ${arm.outputs.length} from ${p.source}; both sides must show as many`);
      else if (outputs && arm.outputs) {
        outputs.forEach((t, i) => {
          const u = arm.outputs?.[i] ?? 'other';
          if (!comparable(t, u)) this.errors.push(`${op}: column ${i + 1} is ${t} on one side and ${u} on ${p.source}; combine columns of one kind`);
        });
      }
      return { op, plan: p };
    });
  } // prettier-ignore
}

function isAggregated(plan: QueryPlan): boolean {
  const aggregates = plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure') || plan.having.length > 0 || plan.order_by.some((o) => o.key.kind === 'aggregate');
  return aggregates || plan.group_by.length > 0 || plan.time_bucket !== null;
} // prettier-ignore

/** The class of each output column, or null for `*`. */
function outputClasses(select: Projection[], scope: PlanScope): ValueClass[] | null {
  if (!select.length) return null;
  // Classes only: the projections were checked already, so errors found again are dropped.
  const quiet = new PlanScope(scope.tables, scope.source, []);
  quiet.inScope.splice(0, quiet.inScope.length, ...scope.inScope);
  return select.map((p) => {
    if (p.kind === 'bucket') return 'time';
    if (p.kind === 'value') return quiet.valueType(p.expr);
    if (p.kind === 'measure') return 'number';
    const a = p.aggregate;
    if (a.fn === 'count' || a.fn === 'sum' || a.fn === 'avg') return 'number';
    return a.arg ? quiet.valueType(a.arg) : 'other';
  });
}
