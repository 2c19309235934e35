import { numberOf, singular } from '../../text';
import { range } from '../rule';
import { add, truncate, type Grain } from './moments';
import { pushRange, takeRange, type RangeParser, type RangeScan } from './range-scan';
import { wordTable } from '../../word-table';

const RELATIVE_UNITS: Record<string, Grain | 'week' | 'second'> = wordTable({
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
});

/** Relative to now: `last/past/previous (N) units`, `today`, `yesterday`, `this week/month/year`. */
export const relative: RangeParser = (scan) => {
  const { tokens, now } = scan;
  for (let i = 0; i < tokens.length; i++) {
    if (scan.taken.has(i)) continue;
    const w = tokens[i]?.norm ?? '';
    if (w === 'last' || w === 'past' || w === 'previous') past(scan, i);
    else if (w === 'today' || w === 'yesterday') {
      const start = add(truncate(now, 'day'), 'day', w === 'today' ? 0 : -1);
      pushRange(scan, [i], start, add(start, 'day', 1));
      takeRange(scan, [i]);
    } else if (w === 'this') {
      const g = RELATIVE_UNITS[tokens[i + 1]?.norm ?? ''];
      if (g === 'month' || g === 'year' || g === 'day') {
        pushRange(scan, [i, i + 1], truncate(now, g), null);
        takeRange(scan, [i, i + 1]);
      }
    }
  }
};

/** `last 7 days` (the past seven days to now), `last month` (the previous calendar month), `the past hour`. */
function past(scan: RangeScan, i: number): void {
  const { tokens, now } = scan;
  const n = numberOf(tokens[i + 1]);
  const unitTok = n === null ? tokens[i + 1] : tokens[i + 2];
  const grain = RELATIVE_UNITS[singular(unitTok?.norm ?? '')];
  if (!grain || !unitTok) return;
  // `the last week of February`: a week of that month, not the past seven days.
  if (tokens[unitTok.i + 1]?.norm === 'of') return;
  const idx = range(i, unitTok.i + 1);
  if (tokens[i - 1]?.norm === 'the') idx.unshift(i - 1);
  if (['in', 'over', 'during', 'for', 'within'].includes(tokens[idx[0] - 1]?.norm ?? '')) idx.unshift(idx[0] - 1);
  if (n !== null) {
    pushRange(scan, idx, add(now, grain, -n), null);
  } else {
    // "last month" is the previous calendar month; "last hour" the past 60 minutes.
    const g: Grain = grain === 'week' || grain === 'second' ? 'day' : grain;
    const cal = grain === 'year' || grain === 'month' || grain === 'week' || grain === 'day';
    if (cal) {
      const start = grain === 'week' ? add(truncate(now, 'day'), 'day', -7) : add(truncate(now, g), g, -1);
      pushRange(scan, idx, start, grain === 'week' ? truncate(now, 'day') : truncate(now, g));
    } else pushRange(scan, idx, add(now, grain, -1), null);
  }
  takeRange(scan, idx);
}
