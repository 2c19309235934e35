import type { RelativeMoment, TimeUnit } from '@nl2p/query-plan';
import type { Token } from '../../text';
import type { TimeRangeLink } from '../../types';
import { range } from '../rule';
import { formatMoment, type Moment } from './moments';
import { momentOn } from './relative';
import type { BoundWords, RangeParser, RangeScan } from './range-scan';
import type { Found } from './units';
import { wordTable } from '../../word-table';

/** Words that leave a part out: `excluding the current month`, `not including this week`. */
const LEAVING_OUT = new Set(['excluding', 'except', 'without', 'excluded']);
const UNITS: Record<string, TimeUnit> = wordTable({
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
});

/**
 * What is said of a range's bounds right after it, read into the range (and owned by it):
 * - `excluding the current month`, `not including this week` after `the last 6 months`: whole
 *   periods before the current one (from the start of the month six months back to the start of
 *   this one);
 * - `inclusive of today`, `including today` after `the past 7 days`: today is one of the seven;
 * - `exclusive` after a range's last day: that day is left out;
 * - `inclusive` (`inclusive of start and end dates`, `(inclusive of 150 days ago)`, `both
 *   inclusive`): what the range holds already, read so no word is left unexplained.
 * Two parsers: `boundPhrases` first keeps the words from the others (`today` in `inclusive of
 * today` is no range of its own), `bounds` last reads each into the range it follows.
 */
export const boundPhrases: RangeParser = (scan) => {
  for (let k = 0; k < scan.tokens.length; k++) {
    if (scan.taken.has(k)) continue;
    const said = boundWordsAt(scan, k);
    if (!said) continue;
    scan.boundWords.push(said);
    for (const t of said.tokens) scan.taken.add(t);
    k = Math.max(...said.tokens);
  }
};

export const bounds: RangeParser = (scan) => {
  for (const said of scan.boundWords) {
    const found = scan.out.find((f) => f.link.end === said.start);
    if (!found) {
      // Said of no range: the words are given back (the accounting reports them).
      for (const t of said.tokens) scan.taken.delete(t);
      continue;
    }
    adjust(scan, found, said);
    found.tokens.push(...said.tokens);
    found.link.end = Math.max(found.link.end, ...said.tokens.map((k) => k + 1));
    found.link.text = scan.text.slice(
      scan.tokens[found.link.start]?.start ?? 0,
      scan.tokens[found.link.end - 1]?.end ?? 0,
    );
  }
};

/** The bound words at `k` (a comma or an opening bracket first), with a closing bracket. */
function boundWordsAt(scan: RangeScan, k: number): BoundWords | null {
  const { tokens } = scan;
  let at = k;
  while (tokens[at]?.norm === ',' || tokens[at]?.norm === '(') at++;
  if (at > k + 2) return null;
  const w = tokens[at]?.norm ?? '';
  const notIncluding = w === 'not' && tokens[at + 1]?.norm === 'including';
  let end: number;
  const out: BoundWords = { start: k, tokens: [], leaveOutCurrent: null, includeToday: false, exclusive: false };
  if (LEAVING_OUT.has(w) || notIncluding) {
    const after = at + (notIncluding ? 2 : 1) + (tokens[at + (notIncluding ? 2 : 1)]?.norm === 'the' ? 1 : 0);
    const unit = ['current', 'this'].includes(tokens[after]?.norm ?? '') ? UNITS[tokens[after + 1]?.norm ?? ''] : undefined;
    if (!unit) return null;
    out.leaveOutCurrent = unit;
    end = after + 2;
  } else if (w === 'inclusive' || w === 'including' || w === 'exclusive' || (w === 'both' && tokens[at + 1]?.norm === 'inclusive')) {
    end = phraseEnd(tokens, at + 1);
    out.includeToday = tokens.slice(at, end).some((t) => t.norm === 'today');
    out.exclusive = w === 'exclusive';
    if (w === 'including' && !out.includeToday) return null;
  } else return null;
  if (tokens[end]?.norm === ')') end++;
  out.tokens = range(k, end).filter((x) => !scan.taken.has(x));
  return out;
} // prettier-ignore

/** Where an `inclusive …` phrase ends: before a closing bracket, a comma, a question or a stop. */
function phraseEnd(tokens: readonly Token[], from: number): number {
  let k = from;
  if (tokens[k]?.norm === 'inclusive') k++;
  if (tokens[k]?.norm !== 'of') return k;
  while (k < tokens.length && ![')', ',', '?', '.', ';'].includes(tokens[k]?.norm ?? '') && k < from + 8) k++;
  return k;
}

function adjust(scan: RangeScan, found: Found<TimeRangeLink>, said: BoundWords): void {
  const link = found.link;
  const rel = link.relative;
  if (said.leaveOutCurrent && rel?.from && rel.from.amount < 0) {
    const unit = said.leaveOutCurrent;
    setBounds(scan.now, link, { amount: rel.from.amount, unit: rel.from.unit, start_of: unit }, { amount: 0, unit, start_of: unit });
  } else if (said.includeToday && rel?.from && rel.from.unit === 'day' && !rel.from.start_of && rel.from.amount < 0 && !rel.to) {
    // `the past 7 days, inclusive of today`: today and the six days before it.
    setBounds(scan.now, link, { ...rel.from, amount: rel.from.amount + 1 }, null);
  } else if (said.exclusive && link.to && !rel && /00:00:00$/.test(link.to)) {
    // `… and 2023-06-08 exclusive`: the range stops where that day starts.
    const to = new Date(`${link.to.replace(' ', 'T')}Z`);
    to.setUTCDate(to.getUTCDate() - 1);
    link.to = formatMoment({ year: to.getUTCFullYear(), month: to.getUTCMonth() + 1, day: to.getUTCDate(), hour: 0, minute: 0, second: 0 });
  }
} // prettier-ignore

function setBounds(now: Moment, link: TimeRangeLink, from: RelativeMoment, to: RelativeMoment | null): void {
  link.relative = { from, to };
  link.from = formatMoment(momentOn(now, from));
  link.to = to ? formatMoment(momentOn(now, to)) : null;
}
