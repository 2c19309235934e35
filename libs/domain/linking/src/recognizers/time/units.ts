import type { TimeUnit } from '@nl2p/query-plan';
import { singular, type Token } from '../../text';
import { wordTable } from '../../word-table';

const UNITS: Record<string, TimeUnit> = wordTable({
  second: 'second',
  sec: 'second',
  s: 'second',
  minute: 'minute',
  min: 'minute',
  hour: 'hour',
  hr: 'hour',
  h: 'hour',
  day: 'day',
  week: 'week',
  wk: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
  yr: 'year',
});

/** `hours`, `10-minute` → hour/minute; a lone `s`/`h` only when glued to a number (`10s`). */
export function unitOf(t: Token | undefined, glued = false): TimeUnit | null {
  if (!t || t.kind !== 'word') return null;
  const w = singular(t.norm);
  if ((w === 's' || w === 'h' || w === 'min' || w === 'sec') && !glued)
    return w === 'min' || w === 'sec' ? UNITS[w] : null;
  return UNITS[w] ?? null;
}

export function isPlural(t: Token | undefined): boolean {
  return !!t && singular(t.norm) !== t.norm;
}

/** What a time parser found, and the tokens it owns. */
export interface Found<T> {
  link: T;
  tokens: number[];
}
