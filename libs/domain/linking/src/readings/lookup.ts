import type { ColumnRef } from '@nl2p/query-plan';
import { ownKey, type ColumnInfo } from '../schema-index';
import { singular } from '../text';
import type { ColumnCandidate, TermLink } from '../types';
import { findJoinPath } from '@nl2p/query-plan';
import { joinKeyOf, keyedTables } from './join-key';
import type { ReadingState, Resolved } from './state';

/**
 * Lookups the readings share: what a term names among the tables in scope, and the joins that
 * bring a table into scope. They read the state; only `join` and `doubt` change it.
 */

/** Scores closer than this are a tie. */
export const TIE = 0.05;

/** A doubt that keeps the proposal from being conclusive. */
export function doubt(s: ReadingState, why: string): void {
  s.doubts.push(why);
}

/** Marks a term as taken by the plan. */
export function use(s: ReadingState, t: TermLink | undefined): void {
  if (t) s.used.add(t.id);
}

export function term(s: ReadingState, id: number): TermLink | undefined {
  return s.links.terms[id];
}

export function column(s: ReadingState, c: ColumnCandidate): ColumnInfo | undefined {
  return s.index.table(c.table)?.columns.find((x) => x.label === c.label);
}

/** How strongly a term points at a table: as its name, one of its columns, or one of its values. */
export function termScore(t: TermLink, table: string): number {
  let score = 0;
  for (const c of t.tables) if (c.table === table) score = Math.max(score, c.score);
  for (const c of t.columns)
    if (c.table === table) score = Math.max(score, c.match === 'concept' ? c.score * 0.8 : c.score);
  for (const v of t.values) if (v.table === table) score = Math.max(score, v.score);
  return score;
}

/** The best column a term names among the tables in scope (source first on ties). */
export function resolve(
  s: ReadingState,
  t: TermLink,
  opts: { numeric?: boolean; measure?: boolean; preferTable?: string | null } = {},
): Resolved | null {
  const own = genericKey(s, t);
  if (own && !opts.numeric) return own;
  let best: Resolved | null = null;
  for (const c of t.columns) {
    if (!s.scope.includes(c.table)) continue;
    const info = column(s, c);
    if (!info) continue;
    if ((opts.numeric || opts.measure) && !info.numeric) continue;
    // Ids are numbers but not amounts: nobody averages them.
    if (opts.measure && /(^|_)id$/i.test(info.column)) continue;
    let score = c.score;
    if (c.table === s.source) score += 0.01;
    if (opts.preferTable && c.table === opts.preferTable) score += 0.2;
    if (!best || score > best.score) best = { table: c.table, info, score };
  }
  return best;
}

/** `ids`, `their ids`: the identifying column of the rows being listed (the source's own key). */
export function genericKey(s: ReadingState, t: TermLink): Resolved | null {
  if (!t.columns.length || t.columns.some((c) => c.match !== 'generic')) return null;
  const src = s.source ? s.index.table(s.source) : undefined;
  const key = src && ownKey(src, singular);
  return key && t.columns.some((c) => c.table === src.name && c.label === key.label)
    ? { table: src.name, info: key, score: 1 }
    : null;
}

/** Columns of a term tied for best (`time` with two timestamps): an ambiguity to ask about. */
export function ties(s: ReadingState, t: TermLink): string[] {
  if (genericKey(s, t)) return [];
  const inScope = t.columns.filter((c) => s.scope.includes(c.table));
  const top = inScope[0]?.score ?? 0;
  const tied = inScope.filter((c) => top - c.score < TIE && c.match !== 'concept');
  const labels = [...new Set(tied.map((c) => (c.table === s.source ? c.label : `${c.table}.${c.label}`)))];
  return labels.length > 1 ? labels : [];
}

/** How the plan names a resolved column: bare in the source, qualified in a joined table. */
export function ref(s: ReadingState, r: Resolved): ColumnRef {
  return {
    ...(r.table !== s.source ? { table: r.table } : {}),
    column: r.info.column,
    ...(r.info.path.length ? { path: r.info.path } : {}),
  };
}

/** Tables a join path may pass through that the request did not name. */
const MAX_BRIDGES = 1;

/**
 * Brings a table into scope along the shortest join path from the tables already in scope
 * (declared foreign keys first, else inferred keys; bridge tables join too), SQL targets only.
 * When another path is as short, the reading says which one it took.
 */
export function join(s: ReadingState, table: string): boolean {
  if (!s.source || s.scope.includes(table)) return s.scope.includes(table);
  if (s.schema.streaming) return false;
  const path = findJoinPath(keyedTables(s.schema), s.source, [...s.scope.slice(1), table]);
  if (!path) return false;
  for (const j of path.joins) {
    const pair = j.on.length === 1 ? j.on[0] : undefined;
    if (s.scope.includes(j.table)) continue;
    if (!pair) return false;
    const from = pair.left.table ?? s.source;
    s.joins.set(j.table, { left: pair.left.column, right: pair.right.column, ...(from !== s.source ? { from } : {}) });
    s.scope.push(j.table);
  }
  if (path.assumption && !s.readings.includes(path.assumption)) s.readings.push(path.assumption);
  // One bridge table is how a many-to-many is said (author → writes → paper); a longer walk is a
  // guess at what relates the two, which the request did not say.
  const bridges = path.joins.filter(
    (j) => j.table !== table && !s.links.terms.some((t) => t.tables[0]?.table === j.table),
  );
  if (bridges.length > MAX_BRIDGES)
    doubt(s, `${table} is reached from ${s.source} only through ${bridges.map((j) => j.table).join(', ')}`);
  return s.scope.includes(table);
}

/** The column a table mention groups or counts by from the source (`per customer` → customer_id). */
export function keyFor(s: ReadingState, table: string): Resolved | null {
  const src = s.source ? s.index.table(s.source) : undefined;
  if (!src) return null;
  if (table === s.source) {
    // Rows of a table are its entities (per order = per row); a stream's rows are events of one.
    if (!s.schema.streaming) return null;
    const own = ownKey(src, singular);
    return own ? { table: src.name, info: own, score: 1 } : null;
  }
  const key = joinKeyOf(s.schema.tables, s.source ?? '', table, s.schema.keys);
  if (!key) return null;
  const info = src.columns.find((c) => c.column === key.left && !c.path.length);
  return info ? { table: src.name, info, score: 1 } : null;
}

/** The table a term names, unless a column in scope fits it clearly better. */
export function isTableMention(s: ReadingState, t: TermLink): string | null {
  const table = t.tables[0];
  if (!table) return null;
  const col = t.columns.find((c) => s.scope.includes(c.table));
  if (col && col.score > table.score + TIE) return null;
  return table.table;
}
