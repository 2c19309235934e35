import type { Token } from '../../text';
import { range } from '../rule';
import { add, type Moment } from './moments';
import { pushRange, takeRange, type RangeParser, type RangeScan } from './range-scan';
import { wordTable } from '../../word-table';

const ORDINALS: Record<string, number> = wordTable({
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
});
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** Parts of a period: quarters and halves of a year. */
const PART_MONTHS: Record<string, number> = wordTable({ quarter: 3, half: 6 });
const UNITS: Record<string, 'day' | 'week' | 'month'> = wordTable({
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
});

/**
 * Parts of a named period: `the first quarter of 2024`, `the second half of 2023`, `Q1 of 2024`,
 * `the last quarter of 2023`, and its first or last days, weeks or months (`the last 2 weeks of
 * February 2024`, `the first 10 days of March 2024`). Before chrono, which would read the period
 * alone (the whole of 2024) and leave the part unread; before the relative parser, which would
 * read `last 2 weeks` as the two weeks before today.
 */
export const periodsOf: RangeParser = (scan) => {
  for (let i = 0; i < scan.tokens.length; i++) {
    if (scan.taken.has(i)) continue;
    if (!partOfYear(scan, i)) edgeOfPeriod(scan, i);
  }
};

/** `(the) first|…|last quarter|half of (the year) 2024`, `Q3 of 2024`. */
function partOfYear(scan: RangeScan, i: number): boolean {
  const { tokens } = scan;
  const q = /^q([1-4])$/.exec(tokens[i]?.norm ?? '');
  const ordinal = q ? Number(q[1]) : (ORDINALS[tokens[i]?.norm ?? ''] ?? (tokens[i]?.norm === 'last' ? -1 : undefined));
  const months = q ? 3 : PART_MONTHS[tokens[i + 1]?.norm ?? ''];
  if (ordinal === undefined || !months) return false;
  const ofAt = q ? i + 1 : i + 2;
  const period = periodAfterOf(tokens, ofAt);
  if (!period || period.months !== 12) return false;
  const parts = 12 / months;
  const n = ordinal === -1 ? parts : ordinal;
  if (n < 1 || n > parts) return false;
  const from = add(period.start, 'month', (n - 1) * months);
  return own(scan, i, period.end, from, add(from, 'month', months));
}

/** `(the) first|last N days|weeks|months of <period>`. */
function edgeOfPeriod(scan: RangeScan, i: number): boolean {
  const { tokens } = scan;
  const edge = tokens[i]?.norm;
  if (edge !== 'first' && edge !== 'last') return false;
  const n = tokens[i + 1]?.kind === 'number' ? Number(tokens[i + 1]?.norm) : NaN;
  const unit = UNITS[tokens[i + 2]?.norm ?? ''];
  if (!Number.isInteger(n) || n < 1 || !unit) return false;
  const period = periodAfterOf(tokens, i + 3);
  if (!period) return false;
  const periodEnd = add(period.start, 'month', period.months);
  const from = edge === 'first' ? period.start : add(periodEnd, unit, -n);
  const to = edge === 'first' ? add(period.start, unit, n) : periodEnd;
  return own(scan, i, period.end, from, to);
}

/** The period after `of` at `k`: `2024`, `the year 2024`, `February 2024` (its start, length in months, end token). */
function periodAfterOf(tokens: readonly Token[], k: number): { start: Moment; months: number; end: number } | null {
  if (tokens[k]?.norm !== 'of') return null;
  let at = k + 1;
  if (tokens[at]?.norm === 'the') at++;
  if (tokens[at]?.norm === 'year') at++;
  const month = MONTHS.indexOf(tokens[at]?.norm ?? '');
  const yearAt = month >= 0 ? at + 1 : at;
  const year = tokens[yearAt]?.kind === 'number' ? Number(tokens[yearAt]?.norm) : NaN;
  if (!(year >= 1900 && year < 2200)) return null;
  const start: Moment = { year, month: month >= 0 ? month + 1 : 1, day: 1, hour: 0, minute: 0, second: 0 };
  return { start, months: month >= 0 ? 1 : 12, end: yearAt + 1 };
}

/** The range from `start` to the token before `end`, with `the` and a preposition before it. */
function own(scan: RangeScan, start: number, end: number, from: Moment, to: Moment): boolean {
  const { tokens } = scan;
  let s = start;
  if (tokens[s - 1]?.norm === 'the') s--;
  if (['in', 'during', 'for', 'over', 'within'].includes(tokens[s - 1]?.norm ?? '')) s--;
  const idx = range(s, end);
  if (idx.some((k) => scan.taken.has(k))) return false;
  pushRange(scan, idx, from, to);
  takeRange(scan, idx);
  return true;
}
