import { tokenize, type Tok } from './fake-sql';

/** A row as the fake runtime sees it: column → value (struct columns are nested objects). */
export type Row = Record<string, unknown>;

/** A condition on a row: true, false, or null (unknown). Throws {@link RuntimeRowError} as the engine would. */
export type Predicate = (row: Row) => boolean | null;

/** What the engine's filter reports for a row it cannot evaluate (stats `last_error`). */
export class RuntimeRowError extends Error {}

/**
 * Live engine (veloFlux a91221e, pipelines fed over MQTT): `BETWEEN` and `IN (…)` fail on every
 * row with these messages, `last_error` as the stats give it (re-measured 2026-11-26 with the
 * prefix naming where it failed). The two booleans are the row's own comparisons (`got
 * Bool(false) and Bool(true)` for an amount below the range), fixed here.
 */
const FILTER_FAILED = 'Processing error: Failed to apply filter: Filter error: Failed to evaluate filter expression: ';
export const BETWEEN_RUNTIME_ERROR = `${FILTER_FAILED}Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)`;
export const IN_RUNTIME_ERROR = `${FILTER_FAILED}Type mismatch: expected Int64, Float32, Float64, or String, got Bool(true) and Bool(false)`;

/**
 * The WHERE clause of `sql` as a predicate, for the shapes the product writes: comparisons of a
 * column (or `(a->b)`, or `stream.col`) with a literal, AND/OR/NOT, parentheses, `isnull(x)`,
 * bare boolean columns. Anything else (other function calls) is unknown (null). A name the row
 * does not have throws {@link MissingColumn} (after an aggregation the row holds only its keys).
 */
export function wherePredicate(sql: string): Predicate | null {
  const toks = tokenize(sql);
  const at = toks.findIndex((t) => t.type === 'ident' && t.depth === 0 && t.value.toLowerCase() === 'where');
  if (at < 0) return null;
  let end = at + 1;
  const stops = new Set(['group', 'having', 'order', 'limit']);
  while (end < toks.length && !(toks[end].depth === 0 && toks[end].type === 'ident' && stops.has(toks[end].value.toLowerCase()))) end += 1;
  return new ConditionParser(toks.slice(at + 1, end)).parse();
} // prettier-ignore

type Value = (row: Row) => unknown;

class ConditionParser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  parse(): Predicate {
    return this.or();
  }

  private word(w: string): boolean {
    const t = this.toks[this.i];
    if (t?.type === 'ident' && t.value.toLowerCase() === w) {
      this.i += 1;
      return true;
    }
    return false;
  }

  private or(): Predicate {
    const parts = [this.and()];
    while (this.word('or')) parts.push(this.and());
    return parts.length === 1 ? parts[0] : (row) => or(parts.map((p) => p(row)));
  }

  private and(): Predicate {
    const parts = [this.not()];
    while (this.word('and')) parts.push(this.not());
    return parts.length === 1 ? parts[0] : (row) => and(parts.map((p) => p(row)));
  }

  private not(): Predicate {
    if (!this.word('not')) return this.comparison();
    const inner = this.not();
    return (row) => {
      const v = inner(row);
      return v === null ? null : !v;
    };
  }

  private comparison(): Predicate {
    const left = this.operand();
    const t = this.toks[this.i];
    if (this.word('not') || this.word('between') || this.word('in')) {
      const word = this.toks[this.i - 1].value.toLowerCase();
      const kind = word === 'not' ? this.toks[this.i]?.value.toLowerCase() : word;
      this.skipRangeOrList();
      return () => {
        throw new RuntimeRowError(kind === 'in' ? IN_RUNTIME_ERROR : BETWEEN_RUNTIME_ERROR);
      };
    }
    if (t?.type === 'op' && ['=', '!=', '<>', '<', '<=', '>', '>='].includes(t.value)) {
      this.i += 1;
      const right = this.operand();
      return (row) => compare(left(row), t.value, right(row));
    }
    return (row) => {
      const v = left(row);
      return typeof v === 'boolean' ? v : null;
    };
  }

  /** Past `[NOT] BETWEEN a AND b` or `[NOT] IN (…)`. */
  private skipRangeOrList(): void {
    if (this.toks[this.i]?.type === 'ident' && ['between', 'in'].includes(this.toks[this.i].value.toLowerCase())) this.i += 1;
    if (this.toks[this.i]?.type === 'lparen') {
      const depth = this.toks[this.i].depth;
      do this.i += 1;
      while (this.i < this.toks.length && !(this.toks[this.i].type === 'rparen' && this.toks[this.i].depth === depth));
      this.i += 1;
      return;
    }
    this.operand();
    this.word('and');
    this.operand();
  } // prettier-ignore

  private operand(): Value {
    const t = this.toks[this.i];
    this.i += 1;
    if (!t) return () => null;
    if (t.type === 'number') return () => Number(t.value);
    if (t.type === 'string') return () => t.value;
    if (t.type === 'op' && t.value === '-' && this.toks[this.i]?.type === 'number') {
      const n = -Number(this.toks[this.i++].value);
      return () => n;
    }
    if (t.type === 'lparen') {
      const inner = this.or();
      this.i += 1; // `)`
      return inner;
    }
    if (t.type === 'ident' && ['true', 'false'].includes(t.value.toLowerCase())) {
      const b = t.value.toLowerCase() === 'true';
      return () => b;
    }
    if (t.type === 'ident' && this.toks[this.i]?.type === 'lparen') return this.call(t.value.toLowerCase());
    if (t.type === 'ident' || t.type === 'qident') return this.path(t.value);
    return () => null;
  }

  private call(name: string): Value {
    this.i += 1; // `(`
    const arg = this.operand();
    while (this.i < this.toks.length && this.toks[this.i].type !== 'rparen') this.operand();
    this.i += 1;
    if (name === 'isnull') return (row) => arg(row) === null || arg(row) === undefined;
    return () => null;
  }

  /** `col`, `stream.col`, `col->field->…`. */
  private path(first: string): Value {
    const names = [first];
    if (this.toks[this.i]?.type === 'dot') {
      this.i += 1;
      names[0] = this.toks[this.i++]?.value ?? first;
    }
    while (this.toks[this.i]?.type === 'op' && this.toks[this.i].value === '->') {
      this.i += 1;
      names.push(this.toks[this.i++]?.value ?? '');
    }
    return (row) => {
      if (!(names[0] in row)) throw new MissingColumn();
      let v: unknown = row[names[0]];
      for (const n of names.slice(1)) v = v !== null && typeof v === 'object' ? (v as Row)[n] : null;
      return v ?? null;
    };
  }
}

/** A condition read a name the row does not have (after an aggregation: not a key or output). */
export class MissingColumn extends Error {}

function compare(a: unknown, op: string, b: unknown): boolean | null {
  if (a === null || b === null || a === undefined || b === undefined) return null;
  const [x, y] = [a as number, b as number];
  if (op === '=') return x === y;
  if (op === '!=' || op === '<>') return x !== y;
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}

const and = (v: (boolean | null)[]) => (v.includes(false) ? false : v.includes(null) ? null : true);
const or = (v: (boolean | null)[]) => (v.includes(true) ? true : v.includes(null) ? null : false);
