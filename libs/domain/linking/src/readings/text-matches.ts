import type { TextMatchLink } from '../types';
import type { ColumnInfo } from '../schema-index';
import { doubt, join, ref, term, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Each text match as a condition on a text column (ILIKE on SQL targets): the column its term
 * names, or the table's name column when the term names the table (`people whose name …` said
 * `people containing …`), else the source's one text column when it has just one. Two or more
 * to choose from, and none said, is a doubt.
 */
/** How a term must name another table's column for a text match to join that table. */
const FIRM: ReadonlySet<string> = new Set(['exact', 'plural', 'abbreviation', 'stem']);

export const textMatches: ReadingRule = {
  name: 'text-matches',
  apply(s) {
    for (const m of s.links.textMatches) {
      const r = columnOf(s, m);
      if (!r) {
        doubt(s, `no text column for "${m.text}"`);
        continue;
      }
      s.conditions.push({ kind: 'text', column: ref(s, r), match: m.match, value: m.value });
    }
  },
};

function columnOf(s: ReadingState, m: TextMatchLink): Resolved | null {
  const t = m.subject === null ? undefined : term(s, m.subject);
  const textual = (info: ColumnInfo | undefined) => !!info && info.text && !info.path.length;
  if (t) {
    // The best text column the term names; another table's is joined (`journals whose names …`).
    const said = t.columns
      .filter((c) => s.scope.includes(c.table) || FIRM.has(c.match))
      .map((c) => ({ c, info: s.index.table(c.table)?.columns.find((x) => x.label === c.label) }))
      .filter((x) => textual(x.info))
      .sort(
        (a, b) =>
          b.c.score + (s.scope.includes(b.c.table) ? 0.01 : 0) - a.c.score - (s.scope.includes(a.c.table) ? 0.01 : 0),
      )[0];
    if (said?.info && join(s, said.c.table)) {
      use(s, t);
      return { table: said.c.table, info: said.info, score: said.c.score };
    }
  }
  // The table said, or nothing said: its one name-like text column.
  const table = t?.tables.find((x) => s.scope.includes(x.table))?.table ?? s.source;
  const texts = (table ? (s.index.table(table)?.columns ?? []) : []).filter(textual);
  const named = texts.filter((c) => /(^|_)(name|title)$/i.test(c.column));
  const only = named.length === 1 ? named[0] : texts.length === 1 ? texts[0] : undefined;
  if (!only || !table) return null;
  if (t) use(s, t);
  return { table, info: only, score: 1 };
}
