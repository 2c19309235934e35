import type { ValueExpr } from '@nl2p/query-plan';
import type { ColumnInfo } from '../schema-index';
import type { TimeRangeLink } from '../types';
import { doubt, ref } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Each date range as conditions on the time column (`>= from`, `< to`); a stream has no range to
 * filter on. Whole years on a table that keeps its years as numbers (`Year`, `Open_Year`) compare
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
      const yearColumn = years && (!s.timeColumn || !s.timeColumn.info.temporal) ? numericYearColumn(s) : null;
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
      const left: ValueExpr = { kind: 'column', ref: ref(s, s.timeColumn) };
      if (range.from)
        s.conditions.push({ kind: 'compare', left, op: '>=', value: { kind: 'timestamp', value: range.from } });
      if (range.to)
        s.conditions.push({ kind: 'compare', left, op: '<', value: { kind: 'timestamp', value: range.to } });
    }
  },
}; // prettier-ignore

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
