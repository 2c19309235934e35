import type { TimeUnit } from '@nl2p/query-plan';
import type { Token } from '../../text';
import type { TimeRangeLink } from '../../types';
import { range } from '../rule';
import { formatMoment, fromDate, type Moment } from './moments';
import type { Found } from './units';

/** A date, a time of day, or both, as chrono read it from the request (a range is made of one or two). */
export interface Part {
  index: number;
  end: number;
  date: { year: number; month: number; day: number | null } | null;
  time: { hour: number; minute: number } | null;
}

/** One request as the range parsers read it: the ranges found so far, the tokens they own, chrono's parts. */
export interface RangeScan {
  readonly tokens: readonly Token[];
  readonly text: string;
  readonly nowDate: Date;
  readonly now: Moment;
  readonly taken: Set<number>;
  readonly out: Found<TimeRangeLink>[];
  /** What chrono found that did not make a range on its own (calendar). */
  readonly parts: Part[];
  /** Parts a parser has made into a range already. */
  readonly usedParts: Set<Part>;
  /** What is said of a range's bounds (`excluding the current month`), kept from the other parsers (bounds). */
  readonly boundWords: BoundWords[];
}

/** Words said of the bounds of the range before them (bounds). */
export interface BoundWords {
  /** The first token after the range they follow (a comma or bracket before them included). */
  start: number;
  tokens: number[];
  /** `excluding the current month`: the unit of the period left out. */
  leaveOutCurrent: TimeUnit | null;
  includeToday: boolean;
  exclusive: boolean;
}

export type RangeParser = (scan: RangeScan) => void;

export function newRangeScan(
  tokens: readonly Token[],
  text: string,
  nowDate: Date,
  already: ReadonlySet<number>,
): RangeScan {
  return {
    tokens,
    text,
    nowDate,
    now: fromDate(nowDate),
    taken: new Set(already),
    out: [],
    parts: [],
    usedParts: new Set(),
    boundWords: [],
  };
}

/**
 * Adds the range [from, to) said over the tokens `idx`, which it owns from now on; `relative`:
 * the same bounds said relative to today (computed again the day the query runs).
 */
export function pushRange(
  scan: RangeScan,
  idx: number[],
  from: Moment | null,
  to: Moment | null,
  relative?: TimeRangeLink['relative'],
): void {
  const s = Math.min(...idx);
  const e = Math.max(...idx) + 1;
  scan.out.push({
    link: {
      start: s,
      end: e,
      text: scan.text.slice(scan.tokens[s]?.start ?? 0, scan.tokens[e - 1]?.end ?? 0),
      from: from ? formatMoment(from) : null,
      to: to ? formatMoment(to) : null,
      ...(relative ? { relative } : {}),
      hint: [],
    },
    tokens: idx,
  });
}

export function takeRange(scan: RangeScan, idx: number[]): void {
  idx.forEach((k) => scan.taken.add(k));
}

/** The span plus the preposition before it and the connective words inside it. */
export function withPreposition(tokens: readonly Token[], idx: number[], preps: string[]): number[] {
  const s = Math.min(...idx);
  const e = Math.max(...idx);
  const all = range(s, e + 1);
  if (preps.includes(tokens[s - 1]?.norm ?? '')) all.unshift(s - 1);
  return all;
}

/** Two parts read as a range: "X and Y", "X to Y", "X - Y", "X until Y". */
export function joinedBy(tokens: readonly Token[], a: Part, b: Part): boolean {
  const between = tokens.slice(a.end, b.index).map((t) => t.norm);
  return between.length <= 2 && between.some((w) => ['and', 'to', 'until', 'till', '-', 'through', '–'].includes(w));
}
