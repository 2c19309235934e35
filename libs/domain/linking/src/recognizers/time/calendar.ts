import * as chrono from 'chrono-node';
import { add, momentOf, type Moment } from './moments';
import { pushRange, takeRange, withPreposition, type Part, type RangeParser, type RangeScan } from './range-scan';

/**
 * Calendar dates and times as chrono reads them (`1 March 2024`, `February`, `12:00`, `from
 * March to May`). A range chrono reads whole is added; a single date or time is kept as a part
 * for the parsers after (ranges of parts, dates).
 */
export const calendar: RangeParser = (scan) => {
  const { tokens } = scan;
  const tokensIn = (from: number, to: number) => tokens.filter((t) => t.start >= from && t.end <= to).map((t) => t.i);
  const parsed = chrono.parse(masked(scan), { instant: scan.nowDate, timezone: 0 });
  for (const r of parsed) {
    const idx = tokensIn(r.index, r.index + r.text.length);
    if (!idx.length || idx.some((k) => scan.taken.has(k))) continue;
    const date = partOf(r.start, scan.now);
    const time = timeOf(r.start);
    // A month name alone must look like one ("in March", not the verb "may").
    if (
      date &&
      date.day === null &&
      !r.start.isCertain('year') &&
      !/^[A-Z]/.test(r.text.replace(/^(in|on|of|during)\s+/i, ''))
    )
      continue;
    if (!date && !time) continue;
    if (r.end && wholeRange(scan, idx, date, time, r.end)) continue;
    scan.parts.push({ index: Math.min(...idx), end: Math.max(...idx) + 1, date, time });
  }
};

/** Numbers inside identifiers (`dev-01`, `TH-300`) are not hours or days: the text with them hidden from chrono. */
function masked(scan: RangeScan): string {
  let out = scan.text;
  for (const t of scan.tokens) {
    if (t.kind === 'number' && t.joined && scan.tokens[t.i - 1]?.kind === 'word') {
      out = out.slice(0, t.start) + 'x'.repeat(t.end - t.start) + out.slice(t.end);
    }
  }
  return out;
}

/** A range chrono read with its end (`from March to May 2024`): added, when a date is known for both ends. */
function wholeRange(
  scan: RangeScan,
  idx: number[],
  date: Part['date'],
  time: Part['time'],
  end: chrono.ParsedComponents,
): boolean {
  const endDate = partOf(end, scan.now) ?? date;
  const endTime = timeOf(end);
  const d0 = date ?? endDate;
  if (!d0 || !endDate) return false;
  const from = momentOf(d0, time);
  const to = endTime
    ? momentOf(endDate, endTime)
    : add(momentOf(endDate, null), endDate.day === null ? 'month' : 'day', 1);
  const all = withPreposition(scan.tokens, idx, ['from', 'between']);
  pushRange(scan, all, from, to);
  takeRange(scan, all);
  return true;
}

function timeOf(c: chrono.ParsedComponents): Part['time'] {
  return c.isCertain('hour') ? { hour: c.get('hour') ?? 0, minute: c.get('minute') ?? 0 } : null;
}

function partOf(c: chrono.ParsedComponents, now: Moment): Part['date'] {
  const month = c.isCertain('month') ? c.get('month') : null;
  const year = c.isCertain('year') ? c.get('year') : null;
  const day = c.isCertain('day') ? c.get('day') : null;
  if (month === null && year === null) return null;
  return {
    year: year ?? now.year,
    month: month ?? 1,
    day: month === null ? null : day,
  };
}
