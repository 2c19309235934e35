import type { Token } from '../../text';
import type { TimeGroupLink, TimeRangeLink } from '../../types';
import { boundPhrases, bounds } from './bounds';
import { calendar } from './calendar';
import { dates } from './dates';
import { newGroupScan, type GroupParser } from './group-scan';
import { partRanges } from './part-ranges';
import { periodsOf } from './periods-of';
import { quarters } from './quarters';
import { newRangeScan, type RangeParser } from './range-scan';
import { periods } from './periods';
import { relative } from './relative';
import type { Found } from './units';
import { windows } from './windows';
import { years } from './years';

/**
 * The time parsers, one per file, composed as chrono composes its own: each owns the tokens of
 * what it finds, and a parser after it does not read them again.
 *
 * Groupings: explicit windows first (they say the most: `a sliding window of 30 seconds` is not
 * `every 30 seconds`), then periods.
 */
const GROUP_PARSERS: readonly GroupParser[] = [windows, periods];

/**
 * Ranges: parts of a named period first (`the first quarter of 2024`, `the last 2 weeks of
 * February 2024`: chrono would read the period alone, the relative parser `last 2 weeks` as the
 * past two); years said as years (`in the year 2020` is not this year, `after 2005` is no date of
 * chrono's); relative ones and quarters before chrono (which reads `last week` and `Q1`
 * its own way); chrono's parts, then the ranges made of two parts before the single dates (a date
 * inside `between 12:00 and 18:00 on 1 March` belongs to the range). What is said of a range's
 * bounds after it (`excluding the current month`, `inclusive of today`, `exclusive`) is kept from
 * every other parser first (its `today` is no range), and read into the range it follows last.
 */
const RANGE_PARSERS: readonly RangeParser[] = [
  boundPhrases,
  periodsOf,
  years,
  relative,
  quarters,
  calendar,
  partRanges,
  dates,
  bounds,
];

/**
 * Time grouping: `per hour`, `daily`, `every 10 seconds`, `10-minute buckets`, `per 15 minutes`,
 * `sliding window of the last 30 seconds`, `windows of 100 readings`. On streams the grouping is
 * a window (tumbling unless said otherwise); on SQL targets a bucket.
 */
export function findTimeGroups(tokens: readonly Token[], streaming: boolean, text: string): Found<TimeGroupLink>[] {
  const scan = newGroupScan(tokens, streaming, text);
  for (const parse of GROUP_PARSERS) parse(scan);
  // "over N-second windows" said twice ("over" + "windows") collapses into the first link.
  return dedupe(scan.out);
}

/**
 * Date and time ranges: `in February 2024`, `on 1 March 2024 between 12:00 and 18:00`,
 * `last 7 days`, `in 2024`, `since March 2024`. Half-open: `to` is the first moment after.
 * `already`: tokens other recognizers own.
 */
export function findTimeRanges(
  tokens: readonly Token[],
  text: string,
  now: Date,
  already: ReadonlySet<number> = new Set(),
): Found<TimeRangeLink>[] {
  const scan = newRangeScan(tokens, text, now, already);
  for (const parse of RANGE_PARSERS) parse(scan);
  return scan.out;
}

function dedupe(found: Found<TimeGroupLink>[]): Found<TimeGroupLink>[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.link.unit}/${f.link.size}/${f.link.window ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
