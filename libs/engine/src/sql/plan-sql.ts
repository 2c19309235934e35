import type {
  ColumnRef,
  Condition,
  DatePart,
  ElapsedUnit,
  Literal,
  QueryPlan,
  StreamWindow,
  TextMatch,
  TimeBucket,
} from '@nl2p/query-plan';
import type { CompiledQuery, PlanTables } from '../compiler';
import { SelectWriter, type WriteContext } from './plan-sql-writer';

/**
 * What differs between the dialects a plan compiles to. Everything else — the clause order,
 * readable aliases, qualifying columns when tables are joined, group keys, sub-plans and set
 * operations — is shared, so every target's SQL is written by one {@link compilePlan}.
 */
export interface PlanDialect {
  label: string;
  /** Words that must be quoted as identifiers. */
  reserved: ReadonlySet<string>;
  /** Writes `name` as an identifier, quoted only when it has to be. */
  identifier(name: string): string;
  column(ref: ColumnRef, qualify: boolean): string;
  literal(value: Literal): string;
  /** A case-insensitive text match. */
  textMatch(column: string, match: TextMatch, value: string): string;
  /** A part of a date or time as a number; absent when the dialect cannot take one (refused by name). */
  datePart?(part: DatePart, column: string): string;
  isNull(column: string, negated: boolean): string;
  /**
   * `left / right` as the plan means it: real division. Optional; the plain operator otherwise.
   * `safe` says the divisor is a non-zero number literal.
   */
  divide?(left: string, right: string, safe: boolean): string;
  /** The time from one date or time to another, in `unit`s with the fraction; absent when the dialect cannot (refused by name). */
  elapsed?(unit: ElapsedUnit, from: string, to: string): string;
  /** SQL tables: the start of a row's bucket. Throws QueryPlanError when the dialect has no such bucket. */
  bucket?(column: string, bucket: TimeBucket): string;
  /** Streams: the window written inside GROUP BY. */
  window?(window: StreamWindow, condition: (c: Condition) => string, column: (r: ColumnRef) => string): string;
  /** Refuses what the dialect cannot express (joins, LIMIT on a stream, …) before writing SQL. */
  refuse(plan: QueryPlan, tables: PlanTables): void;
  /** Sentences the person must read with this SQL (how the dialect evaluates it). */
  /**
   * `where`: the WHERE clause as written; `rowCondition`: the condition written into the
   * aggregates instead ({@link rowConditionsInAggregates}).
   */
  assumptions(plan: QueryPlan, sql: { where: string | null; rowCondition: string | null }): string[];
  /**
   * Why an output name cannot be used (veloFlux: it equals an input column, or is reserved), or
   * null. Every dialect also requires output names to be unique.
   */
  aliasProblem(alias: string, plan: QueryPlan, tables: PlanTables): string | null;
  /**
   * veloFlux: every non-aggregate SELECT item must textually equal a GROUP BY key, so a computed
   * value over group keys is grouped by its own text too (it depends only on those keys, so the
   * groups stay the same). SQL targets accept it as it is.
   */
  groupComputedValues: boolean;
  /**
   * veloFlux: a WHERE beside a window is applied after the aggregation (recorded), so a condition
   * on rows is written into each aggregate (`avg(CASE WHEN c THEN x END)`) and a window or group
   * with no matching row is dropped by `HAVING count(CASE WHEN c THEN 1 END) > 0`: the numbers a
   * per-row filter gives, shown on the real engine with known input.
   */
  rowConditionsInAggregates?: boolean;
  /** veloFlux: `ndv(x)`, the distinct count that runs (count(DISTINCT x) fails when run). */
  distinctCount?(arg: string): string;
  /**
   * A range and a value list as the dialect runs them; `BETWEEN` and `IN (…)` otherwise. veloFlux
   * accepts both forms and then fails them on every row, so it spells them as comparisons.
   */
  between?(column: string, low: string, high: string): string;
  inList?(column: string, values: string[], negated: boolean): string;
}

const SIMPLE = /^[a-z_][a-z0-9_]*$/;

/** `"name"` only when it has to be: not lower-case simple, or a reserved word. */
export function quoteIfNeeded(name: string, reserved: ReadonlySet<string>): string {
  return SIMPLE.test(name) && !reserved.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function stringLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * A number as SQL: plain digits, never JavaScript's exponent form (`1e+21`, `1e-7`), which not
 * every parser reads as a number literal.
 */
export function numberSql(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  const [mantissa, exp] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [int, frac = ''] = mantissa.replace('-', '').split('.');
  const digits = int + frac;
  const point = int.length + Number(exp);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${plain}`;
}

/** A literal in a dialect that spells booleans and timestamps its own way (or refuses them). */
export function literalSql(
  v: Literal,
  spell: { booleans: [string, string]; timestamp(value: string): string },
): string {
  switch (v.kind) {
    case 'string':
      return stringLiteral(v.value);
    case 'number':
      return numberSql(v.value);
    case 'boolean':
      return v.value ? spell.booleans[0] : spell.booleans[1];
    case 'timestamp':
      return spell.timestamp(v.value);
  }
}

/** `2024-03-01` → `2024-03-01 00:00:00`; `2024-03-01 12:00` → `2024-03-01 12:00:00`. */
export function fullTimestamp(value: string): string {
  const [date, time = '00:00:00'] = value.split(' ');
  return `${date} ${time.length === 5 ? `${time}:00` : time}`;
}

/**
 * Compiles a plan that passed `checkPlan` with one dialect: the dialect refuses what it cannot
 * express, then one {@link SelectWriter} per SELECT writes the statement (sub-plans and set
 * operands get writers of their own).
 */
export function compilePlan(plan: QueryPlan, tables: PlanTables, d: PlanDialect): CompiledQuery {
  d.refuse(plan, tables);
  const ctx: WriteContext = { d, tables, notes: [], aliases: new Set() };
  const writer = new SelectWriter(plan, ctx, null);
  const sql = writer.write();
  return {
    sql,
    assumptions: [...d.assumptions(plan, { where: writer.whereSql, rowCondition: writer.rowCondition }), ...ctx.notes],
  };
}

export { aggregateName } from './plan-sql-names';
