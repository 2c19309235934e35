import {
  measureParts,
  type Aggregate,
  type ColumnRef,
  type MeasureExpr,
  type Projection,
  type QueryPlan,
  type ValueExpr,
} from '@nl2p/query-plan';
import type { WriteContext } from './plan-sql-writer';

/**
 * The rows that hold their group's extreme, as SQL both databases run alike: the plan's FROM and
 * WHERE in a derived table that also ranks each row within its group
 * (`rank() OVER (PARTITION BY per ORDER BY by DESC)`, so ties share a rank and are all kept), and
 * the outer SELECT keeping ranks up to the count. Rows whose `by` is NULL are left out before
 * ranking: a missing value holds no extreme. The derived table shows every column the outer
 * clauses read, each once, under its own name (`table_column` when two tables share it).
 */
export class RankedRows {
  /** `table.column` → its name in the derived table. */
  private readonly aliasOf = new Map<string, string>();
  private readonly projected: { table: string; column: string; alias: string }[] = [];
  private readonly name: string;
  private readonly rank: string;

  constructor(
    private readonly plan: QueryPlan,
    private readonly ctx: WriteContext,
    /** A column as the plan's FROM reads it, without struct path or date part. */
    private readonly rowColumn: (ref: ColumnRef) => string,
  ) {
    const refs = readRefs(plan, plan.select.length ? plan.select : this.everyColumn());
    const owners = new Map<string, Set<string>>();
    for (const r of refs) owners.set(r.column.toLowerCase(), new Set([...(owners.get(r.column.toLowerCase()) ?? []), r.table ?? plan.source]));
    this.rank = 'extreme_rank';
    for (const r of refs) {
      const table = r.table ?? plan.source;
      const key = `${table}.${r.column}`;
      if (this.aliasOf.has(key)) continue;
      const shared = (owners.get(r.column.toLowerCase())?.size ?? 0) > 1 || r.column.toLowerCase() === this.rank;
      const alias = shared ? `${table}_${r.column}` : r.column;
      this.aliasOf.set(key, alias);
      this.projected.push({ table, column: r.column, alias });
    }
    this.name = ctx.tables.ranked || ctx.aliases.has('ranked') ? `ranked_${ctx.aliases.size + 2}` : 'ranked';
    ctx.aliases.add(this.name);
  } // prettier-ignore

  /** A column as the outer clauses read it: the derived table's, struct path applied. */
  column(ref: ColumnRef): string {
    const alias = this.aliasOf.get(`${ref.table ?? this.plan.source}.${ref.column}`) ?? ref.column;
    return this.ctx.d.column({ table: this.name, column: alias, ...(ref.path ? { path: ref.path } : {}) }, true);
  }

  /** Whether the derived table shows the column under another name than its own. */
  renames(ref: ColumnRef): boolean {
    return (this.aliasOf.get(`${ref.table ?? this.plan.source}.${ref.column}`) ?? ref.column) !== ref.column;
  }

  /** SELECT * of the plan: every column of every table it reads, as plain values. */
  everyColumn(): Projection[] {
    const tables = [this.plan.source, ...this.plan.joins.map((j) => j.table)];
    return tables.flatMap((table) =>
      (this.ctx.tables[table] ?? []).map((c): Projection => ({ kind: 'value', expr: { kind: 'column', ref: { table, column: c.name } }, alias: null })),
    ); // prettier-ignore
  }

  /** The derived table: FROM and WHERE (conditions joined with AND), each row ranked in its group. */
  from(fromSql: string, where: readonly string[], value: (e: ValueExpr) => string): string {
    const x = this.plan.extreme_per_group;
    if (!x) throw new Error('RankedRows needs a plan with extreme_per_group');
    const d = this.ctx.d;
    const by = value(x.by);
    const per = x.per.map((r) => value({ kind: 'column', ref: r }));
    const over = `${per.length ? `PARTITION BY ${per.join(', ')} ` : ''}ORDER BY ${by}${x.extreme === 'max' ? ' DESC' : ''}`;
    const shown = this.projected.map((p) => `${this.rowColumn({ table: p.table, column: p.column })} AS ${d.identifier(p.alias)}`);
    const conditions = [...where, `${by} IS NOT NULL`];
    return `(SELECT ${[...shown, `rank() OVER (${over}) AS ${this.rank}`].join(', ')} FROM ${fromSql} WHERE ${conditions.join(' AND ')}) AS ${d.identifier(this.name)}`;
  } // prettier-ignore

  /** The outer WHERE: ranks up to the count (ties share one). */
  keep(): string {
    return `${this.ctx.d.identifier(this.name)}.${this.rank} <= ${this.plan.extreme_per_group?.count ?? 1}`;
  }
}

/** Every column the output clauses of a plan read (SELECT, GROUP BY, HAVING, ORDER BY, bucket). */
function readRefs(plan: QueryPlan, select: readonly Projection[]): ColumnRef[] {
  const ofValue = (e: ValueExpr): ColumnRef[] => (e.kind === 'column' ? [e.ref] : e.kind === 'arith' ? [...ofValue(e.left), ...ofValue(e.right)] : e.kind === 'elapsed' ? [e.from, e.to] : []);
  const ofAggregate = (a: Aggregate) => (a.arg ? ofValue(a.arg) : []);
  // A measure's filters are refused beside ranked rows (checkPlan): its aggregates read them.
  const ofMeasure = (e: MeasureExpr): ColumnRef[] => measureParts(e).flatMap((m) => ofAggregate(m.aggregate));
  return [
    ...select.flatMap((p) => (p.kind === 'value' ? ofValue(p.expr) : p.kind === 'aggregate' ? ofAggregate(p.aggregate) : p.kind === 'measure' ? ofMeasure(p.expr) : [])),
    ...plan.group_by,
    ...plan.having.flatMap((h) => ofAggregate(h.aggregate)),
    ...plan.order_by.flatMap((o) => (o.key.kind === 'value' ? ofValue(o.key.expr) : o.key.kind === 'aggregate' ? ofAggregate(o.key.aggregate) : [])),
    ...(plan.time_bucket ? [plan.time_bucket.column] : []),
  ];
} // prettier-ignore
