import type { Token } from '../../text';
import { add, type Moment } from './moments';
import { pushRange, takeRange, type RangeParser } from './range-scan';

const YEAR = /^(1[89]|20)\d\d$/;
/** Prepositions that make a bare year a range (`in 2024`, `since 2019`, `after 2005`, `before 2010`). */
const PREPOSITIONS = ['in', 'during', 'for', 'of', 'since', 'after', 'before', 'from'];

/**
 * A year said as a time: after a preposition (`in 2024`, `since 2019`, `after 2005`, `before 2010`,
 * `in or after 2012`), named as one (`in the year 2020`, `year 2020`), or open-ended after it
 * (`2015 or later`, `2010 and earlier`, `2012 onwards`). `after 2005` starts in 2006: the year
 * said is not part of it; `before 2010` ends as 2010 begins. Runs first, so `the year` of `in
 * the year 2020` is this year to no later parser.
 */
export const years: RangeParser = (scan) => {
  const { tokens } = scan;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t || scan.taken.has(i) || t.kind !== 'number' || !YEAR.test(t.norm)) continue;
    // A year inside a date (`2024-03-01`) is the date's, read by the parsers after.
    if (tokens[i + 1]?.joined || t.joined) continue;
    const start: Moment = { year: Number(t.norm), month: 1, day: 1, hour: 0, minute: 0, second: 0 };
    const said = yearSaid(tokens, i);
    if (!said) continue;
    const idx = Array.from({ length: said.end - said.start }, (_, k) => said.start + k);
    if (idx.some((k) => scan.taken.has(k))) continue;
    pushRange(scan, idx, said.from(start), said.to(start));
    takeRange(scan, idx);
  }
};

interface YearSaid {
  start: number;
  end: number;
  from: (year: Moment) => Moment | null;
  to: (year: Moment) => Moment | null;
}

const whole = (start: number, end: number): YearSaid => ({ start, end, from: (y) => y, to: (y) => add(y, 'year', 1) });

/** How the year at `i` is said, with the tokens that say it; null when it is just a number. */
function yearSaid(tokens: readonly Token[], i: number): YearSaid | null {
  const w = (k: number) => tokens[k]?.norm ?? '';
  const after = openAfter(tokens, i) ?? fromTo(tokens, i);
  if (after) return after;
  // `in or after 2012`, `in or before 2012`.
  if (w(i - 2) === 'or' && w(i - 3) === 'in' && (w(i - 1) === 'after' || w(i - 1) === 'before'))
    return w(i - 1) === 'after'
      ? { start: i - 3, end: i + 1, from: (y) => y, to: () => null }
      : { start: i - 3, end: i + 1, from: () => null, to: (y) => add(y, 'year', 1) };
  // `(before) the year (of) 2010`, `year 2020`: the year named as one, its preposition before that.
  const named = yearNamedBefore(tokens, i);
  const at = named ?? i;
  const prep = w(at - 1);
  if (!PREPOSITIONS.includes(prep)) return named === null ? null : whole(at, i + 1);
  const start = at - 1;
  if (prep === 'since' || prep === 'from') return { start, end: i + 1, from: (y) => y, to: () => null };
  if (prep === 'after') return { start, end: i + 1, from: (y) => add(y, 'year', 1), to: () => null };
  if (prep === 'before') return { start, end: i + 1, from: () => null, to: (y) => y };
  return whole(start, i + 1);
}

/** Where `the year 2020`, `year 2020` or `the year of 2010` starts before the year at `i`; null when not so said. */
function yearNamedBefore(tokens: readonly Token[], i: number): number | null {
  const w = (k: number) => tokens[k]?.norm ?? '';
  const year = w(i - 1) === 'year' ? i - 1 : w(i - 1) === 'of' && w(i - 2) === 'year' ? i - 2 : null;
  if (year === null) return null;
  return w(year - 1) === 'the' ? year - 1 : year;
}

/** `from 2015 to 2018`, `from 2015 until 2018`: both years whole. */
function fromTo(tokens: readonly Token[], i: number): YearSaid | null {
  const w = (k: number) => tokens[k]?.norm ?? '';
  const end = tokens[i + 2];
  if (w(i - 1) !== 'from' || !['to', 'until', 'till', 'through'].includes(w(i + 1))) return null;
  if (!end || end.kind !== 'number' || !YEAR.test(end.norm)) return null;
  const last = Number(end.norm);
  return {
    start: i - 1,
    end: i + 3,
    from: (y) => y,
    to: (y) => add({ ...y, year: last }, 'year', 1),
  };
}

/** `2015 or later`, `2015 and after`, `2015 onwards`, `2010 or earlier`, `2010 and before`. */
function openAfter(tokens: readonly Token[], i: number): YearSaid | null {
  const w = (k: number) => tokens[k]?.norm ?? '';
  const start = ['in', 'since', 'from'].includes(w(i - 1)) ? i - 1 : i;
  if (['onwards', 'onward'].includes(w(i + 1))) return { start, end: i + 2, from: (y) => y, to: () => null };
  if (w(i + 1) !== 'or' && w(i + 1) !== 'and') return null;
  if (['later', 'after', 'since'].includes(w(i + 2))) return { start, end: i + 3, from: (y) => y, to: () => null };
  if (['earlier', 'before', 'prior'].includes(w(i + 2)))
    return { start, end: i + 3, from: () => null, to: (y) => add(y, 'year', 1) };
  return null;
}
