import type { Literal } from '@nl2p/query-plan';
import { doubt, ref } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * Days of the week as a condition: the day of the week of the time column (`day_of_week` IN the
 * days, 0 = Sunday) — or, with no time column, a text column whose values are the day names
 * (`checkin.day IN ('Saturday', 'Sunday')` for `on weekends`). Neither: a doubt, never a plan
 * that drops the days.
 */
export const weekDays: ReadingRule = {
  name: 'week-days',
  apply(s) {
    for (const w of s.links.weekDays ?? []) {
      if (s.schema.streaming) {
        doubt(s, `"${w.text}": a stream's days of the week are not compared`);
        continue;
      }
      if (s.timeColumn?.info.temporal) {
        const column = { ...ref(s, s.timeColumn), part: 'day_of_week' as const };
        const values: Literal[] = w.days.map((d) => ({ kind: 'number', value: d }));
        s.conditions.push({ kind: 'in', column, values });
        continue;
      }
      const named = dayNameColumn(s, w.names);
      if (named) s.conditions.push({ kind: 'in', column: named.column, values: named.values });
      else doubt(s, `no time column for "${w.text}"`);
    }
  },
};

/** A text column of the source whose values hold the days said, as written there (`Saturday`, `sat`). */
function dayNameColumn(s: ReadingState, names: string[]): { column: ReturnType<typeof ref>; values: Literal[] } | null {
  const src = s.source ? s.index.table(s.source) : undefined;
  const held = s.schema.values?.[s.source ?? ''] ?? {};
  for (const [column, values] of Object.entries(held)) {
    const info = src?.columns.find((c) => c.column === column && !c.path.length);
    const found = names.map((n) => values.find((v) => v.toLowerCase() === n.toLowerCase()));
    if (!info || found.some((v) => v === undefined)) continue;
    return { column: ref(s, { table: src?.name ?? '', info, score: 1 }), values: found.map((v) => ({ kind: 'string', value: v ?? '' })) };
  }
  return null;
} // prettier-ignore
