import type { RelativeMoment, TimeUnit } from '@nl2p/query-plan';
import { numberOf, singular } from '../../text';
import { range } from '../rule';
import { add, truncate, type Moment } from './moments';
import { pushRange, takeRange, type RangeParser, type RangeScan } from './range-scan';
import { wordTable } from '../../word-table';

const RELATIVE_UNITS: Record<string, TimeUnit> = wordTable({
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
});
const SUB_DAY = new Set<TimeUnit>(['second', 'minute', 'hour']);

/**
 * Relative to the day the query runs, so a plan kept and run again reads the same window:
 * `last/past/previous (N) units`, `today`, `yesterday`, `this/current week/month/quarter/year`.
 * Each bound is a {@link RelativeMoment} (the SQL targets compute it: `CURRENT_DATE - INTERVAL
 * '7 day'`), and also the moment it is on the day the request is read (`from`, `to`).
 */
export const relative: RangeParser = (scan) => {
  const { tokens } = scan;
  for (let i = 0; i < tokens.length; i++) {
    if (scan.taken.has(i)) continue;
    const w = tokens[i]?.norm ?? '';
    if (w === 'last' || w === 'past' || w === 'previous') past(scan, i);
    else if (tokens[i + 2]?.norm === 'ago') ago(scan, i);
    else if (w === 'today' || w === 'yesterday') {
      const back = w === 'today' ? 0 : -1;
      said(scan, [i], { amount: back, unit: 'day' }, { amount: back + 1, unit: 'day' });
    } else if ((w === 'this' || w === 'current') && !leftOut(scan, i)) {
      const unit = RELATIVE_UNITS[tokens[i + 1]?.norm ?? ''];
      const idx = tokens[i - 1]?.norm === 'the' ? [i - 1, i, i + 1] : [i, i + 1];
      if (unit && !SUB_DAY.has(unit)) said(scan, idx, { amount: 0, unit, start_of: unit }, null);
    }
  }
};

/** `excluding the current month`: a part left out of another range (bounds), not a range of its own. */
function leftOut(scan: RangeScan, i: number): boolean {
  const before = scan.tokens.slice(Math.max(0, i - 3), i).map((t) => t.norm);
  return before.some((w) => ['excluding', 'except', 'without', 'including'].includes(w));
}

/**
 * `the last 7 days` (from the start of the day 7 days back: today and the seven before it),
 * `last month` (the previous calendar month), `last week` (the seven days before today), `the
 * past hour` (the last 60 minutes).
 */
function past(scan: RangeScan, i: number): void {
  const { tokens } = scan;
  const n = numberOf(tokens[i + 1]);
  const unitTok = n === null ? tokens[i + 1] : tokens[i + 2];
  const unit = RELATIVE_UNITS[singular(unitTok?.norm ?? '')];
  if (!unit || !unitTok) return;
  // `the last week of February`: a week of that month, not the past seven days.
  if (tokens[unitTok.i + 1]?.norm === 'of') return;
  const idx = range(i, unitTok.i + 1);
  if (tokens[i - 1]?.norm === 'the') idx.unshift(i - 1);
  if (['in', 'over', 'during', 'for', 'within'].includes(tokens[idx[0] - 1]?.norm ?? '')) idx.unshift(idx[0] - 1);
  if (n !== null || SUB_DAY.has(unit)) said(scan, idx, { amount: -(n ?? 1), unit }, null);
  else if (unit === 'week') said(scan, idx, { amount: -7, unit: 'day' }, { amount: 0, unit: 'day' });
  else if (unit === 'day') said(scan, idx, { amount: -1, unit: 'day' }, { amount: 0, unit: 'day' });
  else said(scan, idx, { amount: -1, unit, start_of: unit }, { amount: 0, unit, start_of: unit });
}

/**
 * `2 years ago`, `3 days ago`: the whole period that many back (the calendar year two years
 * before this one, the day three days before today); `a week ago`: the week (from Monday).
 */
function ago(scan: RangeScan, i: number): void {
  const { tokens } = scan;
  const n = numberOf(tokens[i]) ?? (['a', 'an', 'one'].includes(tokens[i]?.norm ?? '') ? 1 : null);
  const unit = RELATIVE_UNITS[singular(tokens[i + 1]?.norm ?? '')];
  if (n === null || !unit || n < 1 || !Number.isInteger(n)) return;
  const idx = [i, i + 1, i + 2];
  const start_of = unit === 'second' || unit === 'minute' ? undefined : unit;
  said(
    scan,
    idx,
    { amount: -n, unit, ...(start_of ? { start_of } : {}) },
    { amount: 1 - n, unit, ...(start_of ? { start_of } : {}) },
  );
}

/** The range [from, to) said over `idx`, relative to today and as it is today. */
function said(scan: RangeScan, idx: number[], from: RelativeMoment, to: RelativeMoment | null): void {
  pushRange(scan, idx, momentOn(scan.now, from), to ? momentOn(scan.now, to) : null, { from, to });
  takeRange(scan, idx);
}

/** What a relative moment is on the day `now` is in (as the SQL targets compute it). */
export function momentOn(now: Moment, m: RelativeMoment): Moment {
  const anchor = m.start_of ? startOf(now, m.start_of) : SUB_DAY.has(m.unit) ? now : truncate(now, 'day');
  if (m.unit === 'quarter') return add(anchor, 'month', 3 * m.amount);
  return add(anchor, m.unit, m.amount);
}

/** The start of the period `unit` that `now` is in: weeks start on Monday (ISO, as `date_trunc`). */
function startOf(now: Moment, unit: TimeUnit): Moment {
  if (unit === 'week') {
    const day = truncate(now, 'day');
    const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
    return add(day, 'day', -((weekday + 6) % 7));
  }
  if (unit === 'quarter') return { ...truncate(now, 'year'), month: Math.floor((now.month - 1) / 3) * 3 + 1 };
  if (unit === 'second') return now;
  return truncate(now, unit);
}
