import type { Aggregate, MeasureExpr, Projection, QueryPlan, TimeBucket, ValueExpr } from '@nl2p/query-plan';
import type { PlanTables } from '../compiler';
import { numberSql, type PlanDialect } from './plan-sql';

/**
 * Output names of one SELECT: readable, unique, never one the dialect forbids. The plan's own
 * aliases and the names plain columns show under are claimed first, so a generated name never
 * takes them; a generated name also keeps clear of every input column, so no reader (or engine)
 * has to decide whether `count` means the column or the output.
 */
export class OutputNames {
  private readonly taken = new Set<string>();
  private readonly inputNames: Set<string>;

  constructor(
    private readonly plan: QueryPlan,
    private readonly tables: PlanTables,
    private readonly d: PlanDialect,
    private readonly notes: string[],
  ) {
    const read = [plan.source, ...plan.joins.map((j) => j.table)];
    this.inputNames = new Set(read.flatMap((t) => (tables[t] ?? []).map((c) => c.name.toLowerCase())));
    for (const p of plan.select) {
      if (p.kind === 'value' && !p.alias && p.expr.kind === 'column' && !p.expr.ref.path?.length && !p.expr.ref.part) this.claim(p.expr.ref.column);
    }
  } // prettier-ignore

  /** A fresh name made from `wanted`. */
  generated(wanted: string): string {
    let alias = wanted.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'value';
    if (/^\d/.test(alias)) alias = `v_${alias}`;
    let unique = alias;
    for (let n = 2; !this.free(unique); n++) unique = `${alias}_${n}`;
    this.claim(unique);
    return unique;
  } // prettier-ignore

  /** The plan's own alias, or a generated one (with a note saying why) when the dialect forbids it. */
  own(alias: string, fallback: string): string {
    const problem = this.taken.has(alias.toLowerCase()) ? 'it is already the name of another output' : this.d.aliasProblem(alias, this.plan, this.tables);
    if (!problem) {
      this.claim(alias);
      return alias;
    }
    const renamed = this.generated(fallback);
    this.notes.push(`The output asked to be called '${alias}' is called '${renamed}' instead: on ${this.d.label} ${problem}.`);
    return renamed;
  } // prettier-ignore

  private claim(name: string): void {
    this.taken.add(name.toLowerCase());
  }

  private free(name: string): boolean {
    const l = name.toLowerCase();
    return !this.taken.has(l) && !this.inputNames.has(l) && !this.d.reserved.has(l) && !this.d.aliasProblem(name, this.plan, this.tables);
  } // prettier-ignore
}

/** The name a projection shows under when the plan gives none. */
export function defaultName(p: Projection, bucket: TimeBucket | null): string {
  if (p.kind === 'value') return describeValue(p.expr);
  if (p.kind === 'aggregate') return aggregateName(p.aggregate);
  if (p.kind === 'measure') return measureName(p.expr);
  return bucketName(bucket);
}

/** `day` for dates, `hour_start` for hours, `bucket_start` for 10-minute buckets. */
export function bucketName(b: TimeBucket | null): string {
  return !b ? 'bucket_start' : b.as_date && b.unit === 'day' && b.size === 1 ? 'day' : b.size === 1 ? `${b.unit}_start` : 'bucket_start';
} // prettier-ignore

export function describeValue(e: ValueExpr): string {
  if (e.kind === 'number') return e.value < 0 ? `neg_${numberSql(-e.value)}` : numberSql(e.value);
  if (e.kind === 'column') return [...(e.ref.part ? [e.ref.part] : []), e.ref.column, ...(e.ref.path ?? [])].join('_');
  if (e.kind === 'elapsed') return `${e.unit}s_from_${e.from.column}_to_${e.to.column}`;
  const word = { '+': 'plus', '-': 'minus', '*': 'times', '/': 'per' }[e.op];
  return `${describeValue(e.left)}_${word}_${describeValue(e.right)}`;
}

/** `avg_temperature`, `count`, `count_distinct_customer_id`, `sum_quantity_times_unit_price`. */
export function aggregateName(a: Aggregate): string {
  if (!a.arg) return a.fn;
  return `${a.fn}_${a.distinct && a.fn !== 'min' && a.fn !== 'max' ? 'distinct_' : ''}${describeValue(a.arg)}`;
}

/**
 * `ratio` for one aggregate divided by another, `percentage` for a hundred times one, else the
 * parts in words (`sum_amount_minus_sum_tax`): a name that says what the figure is.
 */
export function measureName(e: MeasureExpr): string {
  const ratio = (x: MeasureExpr) => x.kind === 'arith' && x.op === '/' && x.left.kind === 'aggregate' && x.right.kind === 'aggregate';
  if (ratio(e)) return 'ratio';
  if (e.kind === 'arith' && e.op === '*' && [e.left, e.right].some((x) => x.kind === 'number' && x.value === 100) && [e.left, e.right].some(ratio)) return 'percentage';
  if (e.kind === 'number') return describeValue(e);
  if (e.kind === 'aggregate') return `${aggregateName(e.aggregate)}${e.filter ? '_filtered' : ''}`;
  const word = { '+': 'plus', '-': 'minus', '*': 'times', '/': 'per' }[e.op];
  return `${measureName(e.left)}_${word}_${measureName(e.right)}`;
} // prettier-ignore
