import type { Column } from '@nl2p/envelope';
import { classifyType, type Condition, type QueryPlan } from '@nl2p/query-plan';
import { havingHolds, holds, type SampleRow } from './plan-eval';

/** Rows to feed a candidate pipeline, and what is known about them. */
export interface SampleRows {
  rows: SampleRow[];
  /**
   * How many rows meet the plan's conditions (WHERE, and HAVING on a group of their copies);
   * null when there is no plan to judge them by (free SQL), so nothing is claimed about them.
   */
  satisfying: number | null;
}

/** Leaf values: a column, or a field of a struct column, by its `->` path. */
type Path = string[];
const key = (p: Path) => p.join('->');

/**
 * Sample rows from the stream's types and the plan: every literal a condition compares with gives
 * values on both sides of it (and on it), a null check gives nulls, a text match gives text that
 * matches and text that does not. Rows that meet the plan's conditions are searched for among
 * combinations of those values (a fixed seed: the same candidate gets the same rows), mixed with
 * rows that do not, and every row is sent twice so each group key occurs at least twice.
 */
export function sampleRows(columns: readonly Column[], plan: QueryPlan | null, sql: string, nowMs: number): SampleRows {
  const leaves = leafPaths(columns);
  const candidates = new Map<string, unknown[]>();
  for (const { path, type } of leaves) candidates.set(key(path), defaults(type, nowMs));
  const add = (path: Path, values: unknown[]) => {
    const list = candidates.get(key(path));
    if (list) for (const v of values) if (!list.some((x) => x === v)) list.push(v);
  };
  if (plan) for (const c of planConditions(plan)) collect(c, add);
  else for (const [path, values] of literalsInSql(sql)) add(path, values);

  const random = mulberry32(0x5eed);
  const build = (pick: (values: unknown[], i: number) => unknown, i: number): SampleRow =>
    toRow(leaves.map(({ path }) => [path, pick(candidates.get(key(path)) ?? [null], i)]));
  // Coverage: row i takes each leaf's i-th value, so every value is sent at least once.
  const width = Math.max(...[...candidates.values()].map((v) => v.length), 1);
  const covering = Array.from({ length: width }, (_, i) => build((v, n) => v[n % v.length], i));
  const searched = Array.from({ length: 400 }, (_, i) => build((v) => v[Math.floor(random() * v.length)], i));
  if (!plan) return { rows: twice(dedupe(covering)), satisfying: null };

  const meets = (r: SampleRow) => (!plan.where || holds(r, plan.where) === true) && havingHolds([r, r], plan.having);
  const good = dedupe([...covering, ...searched].filter(meets)).slice(0, 4);
  const bad = dedupe(covering.filter((r) => !meets(r))).slice(0, 4);
  return { rows: twice([...good, ...bad]), satisfying: good.length * 2 };
}

function planConditions(plan: QueryPlan): Condition[] {
  const state = plan.window?.kind === 'state' ? [plan.window.open, plan.window.emit] : [];
  return [...(plan.where ? [plan.where] : []), ...state];
}

/** The values a condition makes interesting, on both sides of each literal. */
function collect(c: Condition, add: (path: Path, values: unknown[]) => void): void {
  const around = (v: unknown): unknown[] => (typeof v === 'number' ? [v - 1, v, v + 1] : [v, other(v)]);
  switch (c.kind) {
    case 'compare':
      if (c.left.kind === 'column') add([c.left.ref.column, ...(c.left.ref.path ?? [])], around(c.value.value));
      return;
    case 'between':
      add([c.column.column, ...(c.column.path ?? [])], [...around(c.low.value), ...around(c.high.value)]);
      return;
    case 'in':
      add(
        [c.column.column, ...(c.column.path ?? [])],
        c.values.flatMap((v) => around(v.value)),
      );
      return;
    case 'text':
      add([c.column.column, ...(c.column.path ?? [])], [`x${c.value}x`, `${c.value}x`, `x${c.value}`, 'zzz']);
      return;
    case 'null':
      add([c.column.column, ...(c.column.path ?? [])], [null]);
      return;
    case 'and':
    case 'or':
      c.conditions.forEach((x) => collect(x, add));
      return;
    case 'not':
      collect(c.condition, add);
      return;
    default:
      return;
  }
}

const other = (v: unknown): unknown => (typeof v === 'boolean' ? !v : typeof v === 'string' ? `${v}_other` : null);

/** Free SQL: `column op literal` wherever it appears (WHERE, CASE WHEN, HAVING-free conditions). */
function literalsInSql(sql: string): [Path, unknown[]][] {
  const out: [Path, unknown[]][] = [];
  const pattern = /([A-Za-z_]\w*(?:\s*->\s*[A-Za-z_]\w*)*)\)?\s*(?:=|!=|<>|<=|>=|<|>)\s*('(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false)/gi;
  for (const m of sql.matchAll(pattern)) {
    const path = m[1].split('->').map((s) => s.trim());
    const raw = m[2];
    const value: unknown = raw.startsWith("'") ? raw.slice(1, -1).replace(/''/g, "'") : /^(true|false)$/i.test(raw) ? raw.toLowerCase() === 'true' : Number(raw);
    out.push([path, typeof value === 'number' ? [value - 1, value, value + 1] : [value, other(value)]]);
  }
  for (const m of sql.matchAll(/isnull\s*\(\s*\(?\s*([A-Za-z_]\w*(?:\s*->\s*[A-Za-z_]\w*)*)/gi)) {
    out.push([m[1].split('->').map((s) => s.trim()), [null]]);
  }
  return out;
} // prettier-ignore

function leafPaths(columns: readonly Column[], prefix: Path = []): { path: Path; type: Column }[] {
  return columns.flatMap((c) =>
    c.fields?.length ? leafPaths(c.fields, [...prefix, c.name]) : [{ path: [...prefix, c.name], type: c }],
  );
}

/** Values every column gets, by its type: two distinct ones, so groups and comparisons vary. */
function defaults(c: Column, nowMs: number): unknown[] {
  switch (classifyType(c.data_type)) {
    case 'number':
      return /int/i.test(c.data_type) ? [1, 2] : [1.5, 2.5];
    case 'text':
      return ['a', 'b'];
    case 'boolean':
      return [true, false];
    case 'time':
      return [nowMs];
    case 'list':
      return [c.element ? defaults(c.element, nowMs) : []];
    default:
      return [null];
  }
}

function toRow(entries: [Path, unknown][]): SampleRow {
  const row: SampleRow = {};
  for (const [path, value] of entries) {
    let target = row;
    for (const field of path.slice(0, -1)) target = (target[field] ??= {}) as SampleRow;
    target[path[path.length - 1]] = value;
  }
  return row;
}

function dedupe(rows: SampleRow[]): SampleRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = JSON.stringify(r);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

const twice = (rows: SampleRow[]) => rows.flatMap((r) => [r, r]);

/** A small seeded generator: the same plan always gets the same rows. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
