import type { RelativeMoment, ValueExpr } from '@nl2p/query-plan';
import { isKeyColumn, type ColumnInfo } from '../schema-index';
import type { TimeRangeLink } from '../types';
import { doubt, isTableMention, join, ref, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Each date range as conditions on the time column (`>= from`, `< to`), a bound said relative to
 * today kept relative (`the last 30 days` is computed the day the query runs); a stream has no
 * range to filter on. Whole years on a table that keeps its years as numbers (`Year`, `Open_Year`) compare
 * as numbers: `in 2004` → `>= 2004 AND < 2005`, `after 2000` → `>= 2001`.
 */
export const timeRanges: ReadingRule = {
  name: 'time-ranges',
  apply(s) {
    for (const range of s.links.timeRanges) {
      if (s.schema.streaming) {
        doubt(s, 'a stream has no date range to filter on');
        continue;
      }
      const years = wholeYears(range);
      const yearColumn = years && (!s.timeColumn || !s.timeColumn.info.temporal) ? (namedYearColumn(s, range) ?? numericYearColumn(s)) : null;
      if (years && yearColumn) {
        const left: ValueExpr = { kind: 'column', ref: ref(s, yearColumn) };
        if (years.from !== null) s.conditions.push({ kind: 'compare', left, op: '>=', value: { kind: 'number', value: years.from } });
        if (years.to !== null) s.conditions.push({ kind: 'compare', left, op: '<', value: { kind: 'number', value: years.to } });
        continue;
      }
      if (!s.timeColumn || !s.timeColumn.info.temporal) {
        doubt(s, `no time column for "${range.text}"`);
        continue;
      }
      if (range.hours) {
        hourConditions(s, range.hours, range.text);
        continue;
      }
      if (range.dayUnsaid) doubt(s, `"${range.text}" says no day (read as today)`);
      const left: ValueExpr = { kind: 'column', ref: ref(s, s.timeColumn) };
      // Said relative to today: the bound is computed the day the query runs (`CURRENT_DATE - …`).
      const at = (value: string, relative: RelativeMoment | null | undefined) =>
        ({ kind: 'timestamp' as const, value, ...(relative ? { relative } : {}) });
      if (range.from) s.conditions.push({ kind: 'compare', left, op: '>=', value: at(range.from, range.relative?.from) });
      if (range.to) s.conditions.push({ kind: 'compare', left, op: '<', value: at(range.to, range.relative?.to) });
      if (range.relative) s.readings.push(relativeReading(range.text, s.timeColumn.info.label, range.relative));
    }
  },
}; // prettier-ignore

/** `between 9am and 5pm`: the hour of the time column, on any day; said in the turn's assumptions. */
function hourConditions(s: ReadingState, hours: { from: number; to: number }, text: string): void {
  if (!s.timeColumn) return;
  const left: ValueExpr = { kind: 'column', ref: { ...ref(s, s.timeColumn), part: 'hour' } };
  s.conditions.push({ kind: 'compare', left, op: '>=', value: { kind: 'number', value: hours.from } });
  s.conditions.push({ kind: 'compare', left, op: '<', value: { kind: 'number', value: hours.to } });
  s.readings.push(`"${text}" is read as the time of day on any day (from ${hours.from}:00 to ${hours.to}:00)`);
}

/** `"in the last 30 days" is read as ordered_at from 30 days before today, today being the day the query runs`. */
function relativeReading(text: string, column: string, r: NonNullable<TimeRangeLink['relative']>): string {
  const from = r.from ? ` from ${momentWords(r.from)}` : '';
  const to = r.to ? ` until ${momentWords(r.to)}` : '';
  return `"${text}" is read as ${column}${from}${to}, today being the day the query runs`;
}

/** `30 days before today`, `the start of this month`, `the start of the month 6 months before this one`, `2 hours before now`. */
function momentWords(m: RelativeMoment): string {
  const units = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const dir = m.amount < 0 ? 'before' : 'after';
  if (m.start_of) {
    if (m.amount === 0) return `the start of this ${m.start_of}`;
    if (m.unit === m.start_of && m.amount === -1) return `the start of last ${m.unit}`;
    if (m.unit === m.start_of) return `the start of the ${m.start_of} ${units(Math.abs(m.amount), m.unit)} ${dir} this one`;
    return `${units(Math.abs(m.amount), m.unit)} ${dir} the start of this ${m.start_of}`;
  }
  const anchor = ['second', 'minute', 'hour'].includes(m.unit) ? 'now' : 'today';
  return m.amount === 0 ? anchor : `${units(Math.abs(m.amount), m.unit)} ${dir} ${anchor}`;
} // prettier-ignore

/** The range's bounds as years when each is the start of a year (`2004-01-01T00:00:00`), else null. */
function wholeYears(range: TimeRangeLink): { from: number | null; to: number | null } | null {
  const year = (at: string | null): number | null | undefined => {
    if (at === null) return null;
    const m = /^(\d{4})-01-01(?:[T ]00:00(?::00(?:\.0+)?)?(?:Z|[+-]00:?00)?)?$/.exec(at);
    return m ? Number(m[1]) : undefined;
  };
  const from = year(range.from);
  const to = year(range.to);
  if (from === undefined || to === undefined || (from === null && to === null)) return null;
  return { from, to };
}

/**
 * `institutions founded after 1990`, `branches opened in 2011`: a word right before the years
 * naming a numeric column (not a key) of any table, joined if need be, is where the years are kept.
 */
function namedYearColumn(s: ReadingState, range: TimeRangeLink): Resolved | null {
  const before = s.links.terms.find(
    (t) =>
      t.end === range.start ||
      (t.end === range.start - 1 && AUXILIARIES.has((s.links.tokens[t.end] ?? '').toLowerCase())),
  );
  if (!before || isTableMention(s, before)) return null;
  for (const c of before.columns) {
    const info = s.index.table(c.table)?.columns.find((x) => x.label === c.label);
    // Named by its spelling (`founded`: Founded), not by a meaning (`held` is no `stop`).
    if (!info?.numeric || isKeyColumn(info) || !SPELLED.has(c.match) || !join(s, c.table)) continue;
    use(s, before);
    return { table: c.table, info, score: c.score };
  }
  return null;
}

const SPELLED = new Set(['exact', 'plural', 'stem', 'abbreviation']);
/** Words between a verb and the years it is dated by (`was founded in`, `were opened after`). */
const AUXILIARIES = new Set(['was', 'were', 'is', 'are', 'been']);

/** The source's one numeric column said as a year (`Year`, `Open_Year`, `year_founded`), a named one first. */
function numericYearColumn(s: ReadingState): Resolved | null {
  const src = s.source ? s.index.table(s.source) : undefined;
  if (!src) return null;
  const isYear = (c: ColumnInfo) => c.numeric && !c.path.length && (c.readings[0]?.words ?? []).includes('year');
  const years = src.columns.filter(isYear);
  const named = years.filter((c) => s.links.terms.some((t) => t.columns.some((x) => x.table === src.name && x.label === c.label)));
  const info = named.length === 1 ? named[0] : years.length === 1 ? years[0] : undefined;
  return info ? { table: src.name, info, score: 1 } : null;
} // prettier-ignore
