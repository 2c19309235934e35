import type { ColumnRef } from '@nl2p/query-plan';
import { ownKey, type ColumnInfo } from '../schema-index';
import { singular } from '../text';
import type { ColumnCandidate, MatchKind, TermLink } from '../types';
import { findJoinPath } from '@nl2p/query-plan';
import { joinKeyOf, keyedTables } from './join-key';
import { honourRoles } from './role-keys';
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

/** How the term met the column it resolved to (`exact`, `plural`, `related`, …); null when it did not. */
export function matchKind(t: TermLink, r: Resolved): MatchKind | null {
  return t.columns.find((c) => c.table === r.table && c.label === r.info.label)?.match ?? null;
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
  // `the dates of the orders`: a column of the table said after `of`, when it has one.
  const owner = ofTable(s, t);
  const within = owner && t.columns.some((c) => c.table === owner && s.scope.includes(owner)) ? owner : null;
  const qualifiers = qualifierWords(s, t);
  let best: Resolved | null = null;
  for (const c of t.columns) {
    if (!s.scope.includes(c.table) || (within && c.table !== within)) continue;
    const info = column(s, c);
    if (!info) continue;
    if ((opts.numeric || opts.measure) && !info.numeric) continue;
    // Ids are numbers but not amounts: nobody averages them.
    if (opts.measure && /(^|_)id$/i.test(info.column)) continue;
    let score = c.score + qualifierBonus(s, qualifiers, c);
    if (c.table === s.source) score += 0.01;
    if (opts.preferTable && c.table === opts.preferTable) score += 0.2;
    if (!best || score > best.score) best = { table: c.table, info, score };
  }
  return best;
}

/** `ids`, `their ids`: the identifying column of the rows being listed (the source's own key). */
export function genericKey(s: ReadingState, t: TermLink): Resolved | null {
  if (!t.columns.length || t.columns.some((c) => c.match !== 'generic')) return null;
  // `the id and status of orders`: the key of the table said after `of`, when it is in scope.
  const owner = ofTable(s, t);
  const named = owner && s.scope.includes(owner) ? owner : s.source;
  const src = named ? s.index.table(named) : undefined;
  const key = src && ownKey(src, singular);
  return key && (named !== s.source || t.columns.some((c) => c.table === src.name && c.label === key.label))
    ? { table: src.name, info: key, score: 1 }
    : null;
}

/**
 * Columns of a term tied for best (`time` with two timestamps): an ambiguity to ask about. Not a
 * tie: candidates the plan's joins make equal (`Party_ID` of party and of party_host), or one the
 * words around the term name (`names of sponsors` → Sponsor_name, see qualifierBonus).
 */
export function ties(s: ReadingState, t: TermLink): string[] {
  if (genericKey(s, t)) return [];
  const qualifiers = qualifierWords(s, t);
  const inScope = t.columns
    .filter((c) => s.scope.includes(c.table))
    .map((c) => ({ c, score: c.score + qualifierBonus(s, qualifiers, c) }))
    .sort((a, b) => b.score - a.score);
  const top = inScope[0]?.score ?? 0;
  const tied = inScope.filter((x) => top - x.score < TIE && x.c.match !== 'concept').map((x) => x.c);
  if (tied.length > 1 && joinedAsOne(s, tied)) return [];
  const labels = [...new Set(tied.map((c) => (c.table === s.source ? c.label : `${c.table}.${c.label}`)))];
  return labels.length > 1 ? labels : [];
}

/** More than TIE: a candidate the words around the term name wins the tie. */
const QUALIFIED = 0.06;

/**
 * `names of sponsors`, `names of all stores`, `the protein name`: a word said right after `of`
 * (past articles and `all`) or right before the term that is a word of a candidate's name or of
 * its table's name prefers that candidate.
 */
function qualifierBonus(s: ReadingState, words: ReadonlySet<string>, c: ColumnCandidate): number {
  if (!words.size) return 0;
  const info = column(s, c);
  const table = s.index.table(c.table);
  const said = [...(info?.readings[0]?.words ?? []), ...(table?.readings[0]?.words ?? [])].map((w) => singular(w));
  return said.some((w) => words.has(w)) ? QUALIFIED : 0;
}

function qualifierWords(s: ReadingState, t: TermLink): Set<string> {
  const out = new Set<string>();
  const before = s.links.terms.find((o) => o.end === t.start);
  for (const w of ofTerm(s, t)?.text.toLowerCase().split(/\s+/) ?? []) out.add(singular(w));
  for (const w of before?.text.toLowerCase().split(/\s+/) ?? []) out.add(singular(w));
  // The term's own words name every candidate alike: only the others tell them apart.
  for (const w of t.text.toLowerCase().split(/\s+/)) out.delete(singular(w));
  return out;
}

/**
 * The term said after `of` that the term (or the list it ends: `the id and status of orders`)
 * belongs to, past articles and `all`.
 */
export function ofTerm(s: ReadingState, t: TermLink): TermLink | undefined {
  const tokens = s.links.tokens.map((w) => w.toLowerCase());
  let k = t.end;
  // Past the rest of a list of columns: `id, name and status of …`.
  for (;;) {
    const joiner = tokens[k] === ',' && tokens[k + 1] === 'and' ? 2 : tokens[k] === ',' || tokens[k] === 'and' ? 1 : 0;
    const next = joiner
      ? s.links.terms.find((o) => o.start === k + joiner && o.columns.length && !o.values.length)
      : undefined;
    if (!next) break;
    k = next.end;
  }
  if (tokens[k] !== 'of') return undefined;
  k++;
  while (['the', 'a', 'an', 'all', 'each', 'every', 'its', 'their'].includes(tokens[k] ?? '')) k++;
  return s.links.terms.find((o) => o.start === k);
}

/** The table said after `of` as a table (`the dates of the orders`), if any. */
export function ofTable(s: ReadingState, t: TermLink): string | null {
  const o = ofTerm(s, t);
  const table = o?.tables[0];
  if (!o || !table || o.values.length) return null;
  return o.columns.some((c) => c.score > table.score + TIE) ? null : table.table;
}

/** Every candidate is one column the joins equate (`party.Party_ID = party_host.Party_ID`). */
function joinedAsOne(s: ReadingState, cols: readonly ColumnCandidate[]): boolean {
  const key = (table: string, column: string) => `${table}.${column}`;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x);
    return p === undefined || p === x ? x : find(p);
  };
  for (const [table, j] of s.joins) parent.set(find(key(table, j.right)), find(key(j.from ?? s.source ?? '', j.left)));
  const roots = new Set(cols.map((c) => find(key(c.table, c.column))));
  return roots.size === 1;
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
  const decided = new Set<string>();
  for (const j of path.joins) {
    const pair = j.on.length === 1 ? j.on[0] : undefined;
    if (s.scope.includes(j.table)) continue;
    if (!pair) return false;
    const from = pair.left.table ?? s.source;
    // Two keys between the same tables (`reported_by_staff_id`, `assigned_to_staff_id`): the role said picks one.
    const role = honourRoles(s, { table: j.table, from, pair: { left: pair.left.column, right: pair.right.column } });
    if (role.decided) decided.add(j.table);
    s.joins.set(j.table, { ...role.pair, ...(from !== s.source ? { from } : {}) });
    s.scope.push(j.table);
  }
  const assumption = withoutDecided(path.assumption, decided);
  if (assumption && !s.readings.includes(assumption)) s.readings.push(assumption);
  // One bridge table is how a many-to-many is said (author → writes → paper); a longer walk is a
  // guess at what relates the two, which the request did not say.
  const bridges = path.joins.filter(
    (j) => j.table !== table && !s.links.terms.some((t) => t.tables[0]?.table === j.table),
  );
  if (bridges.length > MAX_BRIDGES)
    doubt(s, `${table} is reached from ${s.source} only through ${bridges.map((j) => j.table).join(', ')}`);
  return s.scope.includes(table);
}

/** The path's "another path is as short" sentences, less those about a table the roles decided. */
function withoutDecided(assumption: string | null, decided: ReadonlySet<string>): string | null {
  if (!assumption || !decided.size) return assumption;
  const kept = assumption.split('. ').filter((a) => ![...decided].some((t) => a.startsWith(`${t} is joined `)));
  return kept.length ? kept.join('. ') : null;
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
  const direct = joinKeyOf(s.schema.tables, s.source ?? '', table, s.schema.keys);
  // `documents per employee` over two keys to Employees: the role said picks one, else a doubt.
  const key = direct && honourRoles(s, { table, from: src.name, pair: direct }).pair;
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
