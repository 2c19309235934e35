import type { Column } from '@nl2p/envelope';
import { describe, describeRef } from './describe';
import { classifyType, suggestion, type ValueClass } from './names';
import type { ColumnRef, ValueExpr } from './plan';

/** Columns of every table or stream a plan may name. */
export type CheckTables = Readonly<Record<string, readonly Column[]>>;

export type ResolvedRef = ColumnRef & { table: string; type: ValueClass };

/**
 * The tables one plan reads (its source, then each join as it is added) and how its column
 * references resolve among them. A sub-plan has a scope of its own: it names only its own tables,
 * and reaches the outer row through its correlation pairs.
 */
export class PlanScope {
  readonly inScope: string[];

  constructor(
    readonly tables: CheckTables,
    readonly source: string,
    readonly errors: string[],
  ) {
    this.inScope = [source];
  }

  /** Resolves a column reference in `scope`; records an error and returns null when it does not exist. */
  resolve(ref: ColumnRef, scope: readonly string[] = this.inScope): ResolvedRef | null {
    const find = (table: string) => this.tables[table]?.find((c) => c.name === ref.column);
    let table = ref.table ?? null;
    if (table && !scope.includes(table)) {
      const known = this.tables[table] ? `'${table}' is not joined` : `there is no table '${table}'`;
      this.errors.push(`column ${table}.${ref.column}: ${known}; the query reads ${scope.join(', ')}`);
      return null;
    }
    if (!table) {
      // The source wins; otherwise the one joined table that has the column.
      const owners = scope.filter((t) => find(t));
      table = find(this.source) && scope.includes(this.source) ? this.source : owners.length === 1 ? owners[0] : null;
      if (!table && owners.length > 1) {
        this.errors.push(`column '${ref.column}' is in ${owners.join(' and ')}; say which table`);
        return null;
      }
    }
    const column = table ? find(table) : undefined;
    if (!table || !column) {
      const where = table ?? scope.join(' or ');
      const names = (table ? [table] : scope).flatMap((t) => (this.tables[t] ?? []).map((c) => c.name));
      this.errors.push(`no column '${ref.column}' in ${where}${suggestion(ref.column, names, 'its columns are')}`);
      return null;
    }
    const leaf = this.walkPath(column, ref.path ?? []);
    if (!leaf) return null;
    const type = ref.part ? this.partType(ref, classifyType(leaf.data_type)) : classifyType(leaf.data_type);
    if (!type) return null;
    return { table, column: ref.column, ...(ref.path?.length ? { path: ref.path } : {}), ...(ref.part ? { part: ref.part } : {}), type };
  } // prettier-ignore

  /** The reference with its table filled in (as it was when it does not resolve). */
  normRef(ref: ColumnRef, scope: readonly string[] = this.inScope): ColumnRef {
    const r = this.resolve(ref, scope);
    return r ? refOf(r) : ref;
  }

  /** The class of a per-row value; arithmetic must be over numbers. */
  valueType(e: ValueExpr): ValueClass {
    if (e.kind === 'number') return 'number';
    if (e.kind === 'column') return this.resolve(e.ref)?.type ?? 'other';
    if (e.kind === 'elapsed') {
      for (const r of [e.from, e.to]) {
        const t = this.resolve(r)?.type ?? 'other';
        if (t !== 'time' && t !== 'other') this.errors.push(`the time from ${e.from.column} to ${e.to.column} needs two date or time columns; '${describeRef(r)}' is ${t}`);
      }
      return 'number';
    }
    if (e.op === '/' && e.right.kind === 'number' && e.right.value === 0) this.errors.push(`'${describe(e)}' divides by zero`);
    for (const side of [e.left, e.right]) {
      const t = this.valueType(side);
      if (t !== 'number' && t !== 'other') this.errors.push(`'${describe(side)}' is ${t}, not a number, so it cannot be used in arithmetic (${describe(e)})`);
    }
    return 'number';
  } // prettier-ignore

  normValue(e: ValueExpr): ValueExpr {
    if (e.kind === 'column') return { kind: 'column', ref: this.normRef(e.ref) };
    if (e.kind === 'arith') return { ...e, left: this.normValue(e.left), right: this.normValue(e.right) };
    if (e.kind === 'elapsed') return { ...e, from: this.normRef(e.from), to: this.normRef(e.to) };
    return e;
  }

  /** The names of the time columns in scope, for messages. */
  timeColumns(): string[] {
    return this.inScope.flatMap((t) =>
      (this.tables[t] ?? []).filter((c) => classifyType(c.data_type) === 'time').map((c) => c.name),
    );
  }

  private walkPath(column: Column, path: readonly string[]): Column | null {
    const walked = [column.name];
    let at = column;
    for (const field of path) {
      const next: Column | undefined = at.fields?.find((f) => f.name === field);
      if (!next) {
        const fields = at.fields?.map((f) => f.name) ?? [];
        this.errors.push(
          fields.length
            ? `column '${walked.join('->')}' has no field '${field}'${suggestion(field, fields, 'its fields are')}`
            : `column '${walked.join('->')}' has no field '${field}' (it is ${at.data_type}, not a struct)`,
        );
        return null;
      }
      at = next;
      walked.push(field);
    }
    return at;
  }

  /** A date part is a number, taken from a date or time column. */
  private partType(ref: ColumnRef, type: ValueClass): ValueClass | null {
    if (type === 'time' || type === 'other') return 'number';
    const times = this.timeColumns();
    const base = describeRef({ ...ref, part: undefined });
    this.errors.push(`'${base}' is ${type}, not a date or time, so it has no ${ref.part}${times.length ? `; the time columns are ${times.join(', ')}` : ''}`);
    return null;
  } // prettier-ignore
}

/** A resolved reference as the plan keeps it (without its class). */
export function refOf(r: ResolvedRef): ColumnRef {
  return { table: r.table, column: r.column, ...(r.path ? { path: r.path } : {}), ...(r.part ? { part: r.part } : {}) };
}
