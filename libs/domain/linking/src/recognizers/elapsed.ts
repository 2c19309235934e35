import type { ElapsedUnit } from '@nl2p/query-plan';
import { singular } from '../text';
import type { ArithmeticNode, TermLink } from '../types';
import { wordTable } from '../word-table';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';

const UNITS: Record<string, ElapsedUnit> = wordTable({
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
});
/** Nouns for a time elapsed whose unit is said apart (`the duration in seconds`). */
const SPAN_NOUNS = new Set(['time', 'duration', 'difference', 'length', 'gap']);
const ARTICLES = new Set(['the', 'a', 'an', 'their', 'its', 'his', 'her']);
/** Parts of a pair of columns that open and close a span: `session_start_ts` … `session_end_ts`. */
const OPENING = new Set(['start', 'begin', 'beginning', 'from', 'open', 'opened', 'departure', 'pickup']);
const CLOSING = new Set(['end', 'finish', 'close', 'closed', 'to', 'arrival', 'dropoff']);

/**
 * The time elapsed between two dates or times, read as an arithmetic the aggregates and the
 * projection take like any other (`the average number of days between the sale date and the
 * payment date`, `hours from pickup to dropoff`, `the time between order and delivery in days`,
 * `the session duration in seconds` when a table holds its start and end). The unit must be said;
 * without one the words stay for the accounting.
 */
export const elapsed: LinkRule = {
  name: 'elapsed',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (s.taken.has(i) || s.arithmeticAt.has(i)) continue;
      const found = betweenTwo(s, i) ?? durationOf(s, i);
      if (!found) continue;
      const link = {
        id: s.arithmetic.length,
        start: found.start,
        end: found.end,
        text: slice(s, found.start, found.end),
        expr: found.expr,
        defines: [],
      };
      s.arithmetic.push(link);
      for (const k of range(found.start, found.end)) s.arithmeticAt.set(k, link);
      take(s, found.own);
      i = found.end - 1;
    }
  },
};

interface Found {
  start: number;
  end: number;
  expr: ArithmeticNode;
  /** The tokens that are the link's own words (not the terms' inside it). */
  own: number[];
}

/** `(number of) days between A and B`, `hours from A to B`, `the time between A and B in days`. */
function betweenTwo(s: LinkState, i: number): Found | null {
  const said = unitAt(s, i) ?? (SPAN_NOUNS.has(norm(s, i)) ? null : undefined);
  if (said === undefined) return null;
  let k = i + 1;
  const inUnit = said ? null : unitPhrase(s, k);
  if (inUnit) k = inUnit.end;
  const joiner = norm(s, k) === 'between' ? 'and' : norm(s, k) === 'from' ? 'to' : null;
  if (!joiner) return null;
  const a = operandAt(s, k + 1);
  if (!a || norm(s, a.end) !== joiner) return null;
  const b = operandAt(s, a.end + 1);
  if (!b) return null;
  const after = unitPhrase(s, b.end);
  const unit = said ?? inUnit?.unit ?? after?.unit;
  if (!unit) return null;
  const start = countCueBefore(s, i);
  const end = after && !said && !inUnit ? after.end : b.end;
  const own = range(start, end).filter((x) => !(x >= a.start && x < a.end) && !(x >= b.start && x < b.end));
  const tables = { ...(a.table ? { from: a.table } : {}), ...(b.table ? { to: b.table } : {}) };
  return {
    start,
    end,
    own,
    expr: { op: '-', left: { term: b.term.id }, right: { term: a.term.id }, elapsed: { unit, tables } },
  };
}

/**
 * One side: a term naming a date or time column (`the sale date`), or a table's name and then
 * its date or time word (`payment received date`: the date of payments_received).
 */
function operandAt(s: LinkState, k: number): { term: TermLink; table: string | null; start: number; end: number } | null {
  const first = termAfter(s, k);
  if (!first) return null;
  const next = s.termAt.get(first.end);
  const temporal = (t: TermLink, table?: string) => t.columns.some((c) => (!table || c.table === table) && s.index.table(c.table)?.columns.find((x) => x.label === c.label)?.temporal);
  const table = first.tables[0]?.table;
  if (!temporal(first) && table && next && temporal(next, table)) return { term: next, table, start: first.start, end: next.end };
  return { term: first, table: null, start: first.start, end: first.end };
} // prettier-ignore

/** `the session duration in seconds`: a word naming the start and the end columns of one table. */
function durationOf(s: LinkState, i: number): Found | null {
  if (norm(s, i) !== 'duration' && norm(s, i) !== 'length') return null;
  const t = s.termAt.get(i - 1);
  const phrase = unitPhrase(s, i + 1);
  if (!t || !phrase) return null;
  const pair = startAndEnd(s, t);
  if (!pair) return null;
  return { start: t.start, end: phrase.end, own: range(i, phrase.end), expr: { op: '-', left: { term: t.id }, right: { term: t.id }, elapsed: { unit: phrase.unit, columns: pair } } };
} // prettier-ignore

/**
 * The date or time columns that open and close a span, in one table: among the columns the term
 * names, or those of the table it names (`user session`: session_start_ts, session_end_ts).
 */
function startAndEnd(s: LinkState, t: TermLink): { table: string; from: string; to: string } | null {
  const ofTable = (t.tables[0] ? (s.index.table(t.tables[0].table)?.columns ?? []).map((info) => ({ table: t.tables[0]?.table ?? '', info })) : []);
  const named = t.columns.map((c) => ({ table: c.table, info: s.index.table(c.table)?.columns.find((x) => x.label === c.label) }));
  const temporal = [...named, ...ofTable].filter((x) => x.info?.temporal && !x.info.path.length);
  const words = (x: (typeof temporal)[number]) => x.info?.readings.flatMap((r) => r.words) ?? [];
  const from = temporal.find((x) => words(x).some((w) => OPENING.has(w)));
  const to = temporal.find((x) => x.table === from?.table && words(x).some((w) => CLOSING.has(w)));
  return from?.info && to?.info ? { table: from.table, from: from.info.column, to: to.info.column } : null;
} // prettier-ignore

function unitAt(s: LinkState, k: number): ElapsedUnit | null {
  return UNITS[singular(norm(s, k))] ?? null;
}

/** `in days`, `in seconds`, `in no. of days`, `in number of days` at `k`. */
function unitPhrase(s: LinkState, k: number): { unit: ElapsedUnit; end: number } | null {
  if (norm(s, k) !== 'in') return null;
  let at = k + 1;
  if (['number', 'no', 'nr'].includes(norm(s, at))) at += norm(s, at + 1) === '.' ? 2 : 1;
  if (norm(s, at) === 'of') at++;
  const unit = unitAt(s, at);
  return unit ? { unit, end: at + 1 } : null;
}

/** The term right at `k`, past articles. */
function termAfter(s: LinkState, k: number): TermLink | null {
  let at = k;
  while (ARTICLES.has(norm(s, at))) at++;
  return s.termAt.get(at) ?? null;
}

/** `the number of days between …`: the count cue before the unit is the unit's, not a count. */
function countCueBefore(s: LinkState, i: number): number {
  for (const [at, cue] of s.aggregateCues) {
    if (cue.fn === 'count' && cue.end === i && !cue.superlative) {
      s.aggregateCues.delete(at);
      return at;
    }
  }
  return i;
}
