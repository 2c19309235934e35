import type { Token } from '../../text';
import type { TimeGroupLink } from '../../types';
import { range } from '../rule';
import type { Found } from './units';

/** One request as the time-grouping parsers read it: what they found so far and the tokens it owns. */
export interface GroupScan {
  readonly tokens: readonly Token[];
  readonly streaming: boolean;
  readonly text: string;
  /** `the day as a date`, `which day`: a day bucket shown as a date. */
  readonly asDate: boolean;
  readonly taken: Set<number>;
  readonly out: Found<TimeGroupLink>[];
}

export type GroupParser = (scan: GroupScan) => void;

export function newGroupScan(tokens: readonly Token[], streaming: boolean, text: string): GroupScan {
  const asDate = /\bas (?:a |the )?(?:calendar )?dates?\b|\bday'?s date\b|\bthe date\b|\bwhich (?:day|date)\b/.test(
    text.toLowerCase(),
  );
  return { tokens, streaming, text, asDate, taken: new Set(), out: [] };
}

/** Adds a time grouping over tokens [start, end), unless a parser before owns one of them. */
export function pushGroup(
  scan: GroupScan,
  start: number,
  end: number,
  link: Omit<TimeGroupLink, 'start' | 'end' | 'text' | 'asDate'>,
): void {
  if (range(start, end).some((k) => scan.taken.has(k))) return;
  for (const k of range(start, end)) scan.taken.add(k);
  scan.out.push({
    link: {
      ...link,
      start,
      end,
      text: scan.text.slice(scan.tokens[start]?.start ?? 0, scan.tokens[end - 1]?.end ?? 0),
      asDate: link.unit === 'day' && scan.asDate,
    },
    tokens: range(start, end),
  });
}
