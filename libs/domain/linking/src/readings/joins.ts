import { findJoinPath } from '@nl2p/query-plan';
import type { TermLink } from '../types';
import { keyedTables } from './join-key';
import { join, ofTable, termScore, TIE } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/** A table another word of the request names outright is the one a shared word belongs to. */
const NAMED_TABLE_BONUS = 0.2;

/**
 * Every term that names another table's column or value, and nothing of the source, pulls the
 * table that fits it best in along the shortest join path (one bridge table at most, see `join`):
 * `the host names for parties` joins party → party_host → host. The word is the evidence; when
 * two tables fit it equally (a bare `name` in several), none is joined, unless another word names
 * one of them as a table (`host` in `host names`).
 */
export const joins: ReadingRule = {
  name: 'joins',
  apply(s) {
    if (!s.source) return;
    const named = new Set(s.links.terms.flatMap((o) => (o.tables[0] ? [o.tables[0].table] : [])));
    for (const t of s.links.terms) {
      // A word that fits the source at all is read there (`device` beside `device_id`).
      if (t.negated || termScore(t, s.source) > 0 || !(t.columns.length || t.values.length)) continue;
      const table = tableToJoin(s, t, named);
      if (table) join(s, table);
    }
  },
};

/** `named`: the tables other words name outright. */
function tableToJoin(s: ReadingState, t: TermLink, named: ReadonlySet<string>): string | null {
  const here = Math.max(0, ...s.scope.map((table) => termScore(t, table)));
  // `the dates of the orders`: the table said after `of` is the one, when it has the column.
  const owner = ofTable(s, t);
  if (owner && !s.scope.includes(owner) && t.columns.some((c) => c.table === owner) && reachable(s, owner))
    return owner;
  const tables = [...new Set([...t.columns.map((c) => c.table), ...t.values.map((v) => v.table)])];
  const ranked = tables
    .filter((table) => !s.scope.includes(table))
    .map((table) => ({ table, score: termScore(t, table) + (named.has(table) ? NAMED_TABLE_BONUS : 0) }))
    .filter((x) => x.score > here + TIE && reachable(s, x.table))
    .sort((a, b) => b.score - a.score);
  const [best, second] = ranked;
  if (!best || (second && best.score - second.score < TIE)) return null;
  return best.table;
}

/** Joinable from the source along declared or inferred keys (SQL targets only). */
function reachable(s: ReadingState, table: string): boolean {
  return !s.schema.streaming && !!findJoinPath(keyedTables(s.schema), s.source ?? '', [table]);
}
