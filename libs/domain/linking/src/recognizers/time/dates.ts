import type { Token } from '../../text';
import { range } from '../rule';
import { add, momentOf, type Grain, type Moment } from './moments';
import { pushRange, takeRange, withPreposition, type Part, type RangeParser, type RangeScan } from './range-scan';
import { wordTable } from '../../word-table';

const WEEK_ORDINALS: Record<string, number> = wordTable({
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  fourth: 3,
  '4th': 3,
});
const DATE_PREPOSITIONS = ['in', 'on', 'during', 'for', 'of', 'since', 'after', 'before', 'until', 'from'];

/**
 * Each date part left, as the whole of its day, month or year: `in February 2024`, `on 1 March`;
 * open-ended after `since`, `from`, `after`, `before`, `until`; `the first week of February 2024`
 * as a week of the month (days 1–7, 8–14, …; `last`: its final 7).
 */
export const dates: RangeParser = (scan) => {
  const { tokens } = scan;
  const parts = scan.parts.filter((p) => p.date);
  // `the last week of February`: what chrono read in the week words belongs to the month's week.
  for (const p of parts) {
    if (!p.date || p.date.day !== null || !p.date.month || p.time || tokens[p.index - 1]?.norm !== 'of') continue;
    const week = weekOfMonth(tokens, p.index - 1);
    if (week) for (const q of parts) if (q !== p && q.index >= week.start && q.end <= p.index) scan.usedParts.add(q);
  }
  for (const p of parts) if (!scan.usedParts.has(p) && p.date) dateRange(scan, p, p.date);
};

function dateRange(scan: RangeScan, p: Part, date: NonNullable<Part['date']>): void {
  const { tokens } = scan;
  const grain: Grain = p.time ? 'minute' : date.day !== null ? 'day' : date.month ? 'month' : 'year';
  const start = momentOf(date, p.time);
  const end = p.time ? null : add(start, grain, 1);
  const prep = tokens[p.index - 1]?.norm ?? '';
  const idx = withPreposition(tokens, range(p.index, p.end), DATE_PREPOSITIONS);
  const week = prep === 'of' && date.day === null && date.month && !p.time ? weekOfMonth(tokens, p.index - 1) : null;
  if (week) {
    const from = week.last ? add(add(start, 'month', 1), 'day', -7) : add(start, 'day', 7 * week.n);
    pushRange(scan, [...range(week.start, p.index), ...idx], from, add(from, 'day', 7));
    takeRange(scan, [...range(week.start, p.index), ...idx]);
    return;
  }
  const [from, to] = bounds(prep, start, end);
  pushRange(scan, idx, from, to);
  takeRange(scan, idx);
}

/** The range a preposition makes of a date [start, end). */
function bounds(prep: string, start: Moment, end: Moment | null): [Moment | null, Moment | null] {
  if (prep === 'since' || prep === 'from') return [start, null];
  if (prep === 'after') return [end ?? start, null];
  if (prep === 'before') return [null, start];
  if (prep === 'until') return [null, end ?? start];
  return [start, end ?? add(start, 'minute', 1)];
}

/** `[the] first|second|third|fourth|last week` ending right before `of` at `ofAt`. */
function weekOfMonth(tokens: readonly Token[], ofAt: number): { n: number; last: boolean; start: number } | null {
  if (tokens[ofAt - 1]?.norm !== 'week') return null;
  const ordinal = tokens[ofAt - 2]?.norm ?? '';
  const last = ordinal === 'last' || ordinal === 'final';
  const n = WEEK_ORDINALS[ordinal];
  if (!last && n === undefined) return null;
  const start = tokens[ofAt - 3]?.norm === 'the' ? ofAt - 3 : ofAt - 2;
  return {
    n: n ?? 0,
    last,
    start: ['in', 'during', 'for'].includes(tokens[start - 1]?.norm ?? '') ? start - 1 : start,
  };
}
