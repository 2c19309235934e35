import type { TermLink } from '../types';
import { termsOf } from './expressions';
import { doubt, term, termScore, TIE } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * The table the plan reads from: the one the words point at most, the terms that must come from
 * it (what is aggregated, counted or computed) weighing most. Two tables that fit equally are a
 * doubt; no word naming data is no plan at all.
 */
/** How much a negated value's table counts toward the source. */
const NEGATED_VALUE = 0.5;

export const sourceTable: ReadingRule = {
  name: 'source-table',
  apply(s) {
    s.ranked = rankTables(s);
    const [top, second] = s.ranked;
    const dataLinked = s.links.terms.some(
      (t) => t.columns.some((c) => c.match !== 'concept') || t.values.length || t.tables.length,
    );
    if (!top || !dataLinked) {
      s.none = true;
      return;
    }
    s.tied = !!second && top.score - second.score < TIE;
    s.source = top.table;
    s.scope = [top.table];
    if (s.tied && second) doubt(s, `tables ${top.table} and ${second.table} fit equally`);
    if (!s.index.table(top.table)) s.none = true;
  },
};

function rankTables(s: ReadingState): { table: string; score: number }[] {
  const anchored = anchors(s);
  const absentFrom = Math.min(...s.links.terms.filter((t) => t.negated && !t.values.length).map((t) => t.start));
  const ranked = Object.keys(s.schema.tables).map((table) => {
    let score = 0;
    // A table said absent (`customers with no orders`) is what the rows lack, not where they come from.
    // A value said absent (`dorms that do not have a TV lounge`) is what the rows lack, and so are
    // the words said after rows said absent (`no orders with a quantity above 5`): they count half.
    for (const t of s.links.terms)
      if (!(t.negated && !t.values.length))
        score += termScore(t, table) * (t.negated || t.start > absentFrom ? NEGATED_VALUE : 1);
    for (const c of s.links.comparisons)
      if (c.subject === null && c.hinted.some((h) => h.table === table)) score += 0.3;
    for (const o of s.links.orders) if (o.hinted.some((h) => h.table === table)) score += 0.3;
    // Anchors weigh most: the table that has what is aggregated is the one to read from.
    let anchoredHere = 0;
    for (const a of anchored) {
      const found = a.asTable
        ? Math.max(0, ...a.term.tables.filter((c) => c.table === table).map((c) => c.score))
        : termScore(a.term, table);
      if (found > 0) anchoredHere += 1;
    }
    return { table, score: Math.round((score + anchoredHere * 2) * 100) / 100 };
  });
  return ranked.filter((r) => r.score > 0).sort((a, b) => b.score - a.score);
}

/** Terms that must come from the chosen table: what is aggregated, counted or computed. */
function anchors(s: ReadingState): { term: TermLink; asTable: boolean }[] {
  const out: { term: TermLink; asTable: boolean }[] = [];
  for (const a of s.links.aggregates) {
    if (a.target && 'term' in a.target) {
      const t = term(s, a.target.term);
      if (t) out.push({ term: t, asTable: a.countsRows && !a.distinct });
    }
  }
  for (const a of s.links.arithmetic) {
    for (const id of termsOf(a.expr)) {
      const t = term(s, id);
      if (t) out.push({ term: t, asTable: false });
    }
  }
  return out;
}
