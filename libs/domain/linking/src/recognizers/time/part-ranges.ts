import { range } from '../rule';
import { add, momentOf } from './moments';
import { joinedBy, pushRange, takeRange, withPreposition, type RangeParser, type RangeScan } from './range-scan';

/**
 * `between 9am and 5pm` with no day said: the hours of any day (whole hours only; with minutes,
 * the range of today, marked as a day the request did not say: the reading doubts it).
 */
function hoursOfAnyDay(scan: RangeScan, idx: number[], from: { hour: number; minute: number }, to: { hour: number; minute: number }): void {
  const { now } = scan;
  const today = { year: now.year, month: now.month, day: now.day };
  pushRange(scan, idx, momentOf(today, from), momentOf(today, to));
  const link = scan.out.at(-1)?.link;
  if (!link) return;
  if (from.minute === 0 && to.minute === 0 && from.hour < to.hour) {
    link.hours = { from: from.hour, to: to.hour };
    link.from = null;
    link.to = null;
  } else link.dayUnsaid = true;
} // prettier-ignore

/**
 * Ranges made of two parts chrono read apart: a day and the times around it ("between 12:00 and
 * 18:00 on 1 March 2024"; the hours of any day when no day is said), or two dates ("between 2024-01-01 and
 * 2024-02-01").
 */
export const partRanges: RangeParser = (scan) => {
  const { tokens, usedParts: used } = scan;
  const dates = scan.parts.filter((p) => p.date);
  const timed = scan.parts.filter((p) => p.time);
  const [a, b] = timed;
  if (a?.time && b?.time && joinedBy(tokens, a, b)) {
    const own = [a, b].find((p) => p.date?.day != null);
    const datePart = own ? null : dates.find((p) => p.date?.day != null && p !== a && p !== b);
    const span = [...range(a.index, b.end), ...(datePart ? range(datePart.index, datePart.end) : [])];
    const idx = withPreposition(tokens, span, ['between', 'from', 'on']);
    const d = own?.date ?? datePart?.date;
    if (d) pushRange(scan, idx, momentOf(d, a.time), momentOf(d, b.time));
    else hoursOfAnyDay(scan, idx, a.time, b.time);
    takeRange(scan, idx);
    used.add(a).add(b);
    if (datePart) used.add(datePart);
  }
  const remaining = dates.filter((p) => !used.has(p));
  if (remaining.length < 2) return;
  const [first, second] = remaining;
  if (first?.date && second?.date && joinedBy(tokens, first, second)) {
    const idx = withPreposition(tokens, range(first.index, second.end), ['between', 'from']);
    const to = second.time
      ? momentOf(second.date, second.time)
      : add(momentOf(second.date, null), second.date.day === null ? 'month' : 'day', 1);
    pushRange(scan, idx, momentOf(first.date, first.time), to);
    takeRange(scan, idx);
    used.add(first).add(second);
  }
};
