import type { Aggregate, ColumnRef, Condition, HavingCondition, Literal, ValueExpr } from '@nl2p/query-plan';

/** One sample row as it is published: column → value (structs are nested objects). */
export type SampleRow = Record<string, unknown>;

/**
 * A plan's conditions evaluated on sample rows, with SQL's three-valued logic (null = unknown),
 * so the dry run knows which of its rows the pipeline should let through. It reads the plan, not
 * the SQL: the SQL is what the engine is being asked to judge.
 */
export function valueOf(row: SampleRow, ref: ColumnRef): unknown {
  let v: unknown = row[ref.column];
  for (const field of ref.path ?? []) v = v !== null && typeof v === 'object' ? (v as SampleRow)[field] : null;
  return v ?? null;
}

function exprValue(row: SampleRow, e: ValueExpr): unknown {
  if (e.kind === 'column') return valueOf(row, e.ref);
  if (e.kind === 'number') return e.value;
  // Refused by the veloFlux compiler before any dry run.
  if (e.kind === 'elapsed') return null;
  const [l, r] = [exprValue(row, e.left), exprValue(row, e.right)];
  if (typeof l !== 'number' || typeof r !== 'number') return null;
  if (e.op === '+') return l + r;
  if (e.op === '-') return l - r;
  if (e.op === '*') return l * r;
  return r === 0 ? null : l / r;
}

function literalValue(l: Literal): unknown {
  return l.value;
}

function compare(left: unknown, op: string, right: unknown): boolean | null {
  if (left === null || right === null || left === undefined) return null;
  const [a, b] = [left as number | string | boolean, right as number | string | boolean];
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return null;
  }
}

/** True, false, or null (unknown) for `c` on `row`. */
export function holds(row: SampleRow, c: Condition): boolean | null {
  switch (c.kind) {
    case 'compare':
      return compare(exprValue(row, c.left), c.op, literalValue(c.value));
    case 'between': {
      const v = valueOf(row, c.column);
      const [lo, hi] = [compare(v, '>=', literalValue(c.low)), compare(v, '<=', literalValue(c.high))];
      return lo === null || hi === null ? null : lo && hi;
    }
    case 'in': {
      const v = valueOf(row, c.column);
      if (v === null) return null;
      const found = c.values.some((x) => literalValue(x) === v);
      return c.negated ? !found : found;
    }
    case 'text': {
      const v = valueOf(row, c.column);
      if (typeof v !== 'string') return null;
      const [text, part] = [v.toLowerCase(), c.value.toLowerCase()];
      if (c.match === 'starts_with') return text.startsWith(part);
      if (c.match === 'ends_with') return text.endsWith(part);
      return text.includes(part);
    }
    case 'null': {
      const isNull = valueOf(row, c.column) === null;
      return c.negated ? !isNull : isNull;
    }
    case 'and': {
      const all = c.conditions.map((x) => holds(row, x));
      return all.includes(false) ? false : all.includes(null) ? null : true;
    }
    case 'or': {
      const any = c.conditions.map((x) => holds(row, x));
      return any.includes(true) ? true : any.includes(null) ? null : false;
    }
    case 'not': {
      const inner = holds(row, c.condition);
      return inner === null ? null : !inner;
    }
    default:
      // A construct this evaluator does not know yet: unknown, so no row is claimed to satisfy it.
      return null;
  }
}

/** An aggregate over a group of rows, as the engine computes it (nulls skipped). */
export function aggregateOf(rows: SampleRow[], a: Aggregate): number | null {
  const values = a.arg ? rows.map((r) => exprValue(r, a.arg as ValueExpr)).filter((v) => v !== null) : rows;
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (a.fn === 'count') return a.distinct ? new Set(values).size : values.length;
  if (!numbers.length) return null;
  if (a.fn === 'sum') return numbers.reduce((x, y) => x + y, 0);
  if (a.fn === 'avg') return numbers.reduce((x, y) => x + y, 0) / numbers.length;
  return a.fn === 'min' ? Math.min(...numbers) : Math.max(...numbers);
}

/** Whether a group of rows meets every HAVING condition. */
export function havingHolds(rows: SampleRow[], having: HavingCondition[]): boolean {
  return having.every((h) => compare(aggregateOf(rows, h.aggregate), h.op, h.value) === true);
}
