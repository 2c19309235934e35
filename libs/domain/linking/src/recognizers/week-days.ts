import { singular } from '../text';
import type { WeekDaysLink } from '../types';
import { wordTable } from '../word-table';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';

const NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** A day word and the days it says (0 = Sunday, as `day_of_week` counts). */
const DAY_WORDS: Record<string, number[]> = wordTable({
  ...Object.fromEntries(NAMES.map((n, i) => [n.toLowerCase(), [i]])),
  weekend: [0, 6],
  weekday: [1, 2, 3, 4, 5],
});
const JOINERS = new Set(['and', 'or', ',']);
const PERIOD_EDGES = new Set(['start', 'starts', 'starting', 'begin', 'begins', 'beginning', 'end', 'ends', 'ending']);

/**
 * Days of the week said as a condition: `on weekends`, `on weekdays`, `on Mondays and
 * Wednesdays`, `during the weekend`. Read after the terms: a day a column is named by (a yes/no
 * `thursday` column) or a value holds (a column of day names) is that term's. The reading
 * compares the day of the week of the time column, or the values of a column of day names.
 */
export const weekDays: LinkRule = {
  name: 'week-days',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      const first = daysAt(s, i);
      if (!first) continue;
      const days = [...first];
      let end = i + 1;
      // `Mondays and Wednesdays`, `Saturday, Sunday`: one condition.
      while (JOINERS.has(norm(s, end)) && daysAt(s, end + 1)) {
        days.push(...(daysAt(s, end + 1) ?? []));
        end += 2;
      }
      const unique = [...new Set(days)].sort((a, b) => a - b);
      const link: WeekDaysLink = {
        start: i,
        end,
        text: slice(s, i, end),
        days: unique,
        names: unique.map((d) => NAMES[d] ?? ''),
      };
      s.weekDays.push(link);
      take(s, range(i, end));
      i = end - 1;
    }
  },
};

/** The days a free day word at `k` says (`weekends`, `Mondays`), or null. */
function daysAt(s: LinkState, k: number): number[] | null {
  if (s.taken.has(k) || s.termAt.has(k)) return null;
  // `per weekday`, `by day of the week`: a grouping, not a condition.
  if (['per', 'each', 'every', 'by'].includes(norm(s, k - 1))) return null;
  // `weeks start on Monday`: when a period begins, not which days to keep.
  if (norm(s, k - 1) === 'on' && PERIOD_EDGES.has(norm(s, k - 2))) return null;
  return DAY_WORDS[singular(norm(s, k))] ?? null;
}
