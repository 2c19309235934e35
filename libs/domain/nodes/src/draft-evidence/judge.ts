import type { RequestEvidence } from './request-evidence';

/**
 * What one drafted condition consists of, whether it came from a plan or from SQL text: the
 * columns it reads (bare, lower-cased), the literals it compares them with, and its shape.
 */
export interface ConditionFacts {
  columns: string[];
  strings: string[];
  numbers: number[];
  /** `YYYY-MM-DD…` literals (a plan's timestamps, SQL's date strings). */
  dates: string[];
  /** Compares with TRUE or FALSE (a yes/no column). */
  boolean: boolean;
  /** `IS [NOT] NULL`. */
  nullTest: boolean;
  /** Tables of the sub-queries it holds (`EXISTS (SELECT … FROM returns …)`), lower-cased. */
  subqueryTables: string[];
}

export const NO_FACTS: ConditionFacts = {
  columns: [],
  strings: [],
  numbers: [],
  dates: [],
  boolean: false,
  nullTest: false,
  subqueryTables: [],
};

/**
 * Whether the request gives evidence for a condition with these facts (issue 23).
 *
 * - A condition with literals needs every literal said (a number, a value, a date the reading
 *   recognised): a threshold or a value nobody said is invented, even on a column a word names —
 *   `quantity` in "quantity per status" names the column to add up, not a filter on it.
 *   A date literal on a time column is also evidenced by any time range the reading recognised
 *   (`last week` becomes bounds computed from today, which no word spells).
 * - A TRUE/FALSE test needs its column named: a yes/no column a word names is the condition
 *   ("automatic cars" → `has_auto_gearbox`).
 * - A NULL test has no literal to say: it needs its column named and a word saying absence.
 * - A sub-query needs its table named ("customers who placed an order"); its inner conditions are
 *   the sub-plan's own and are not judged here.
 * - Anything else (a column compared with a column) needs every column it reads named.
 */
export function evidenced(f: ConditionFacts, ev: RequestEvidence): boolean {
  if (f.subqueryTables.length) {
    return f.subqueryTables.some((t) => ev.tables.has(t)) || f.columns.some((c) => ev.columns.has(c));
  }
  const literals = f.strings.length + f.numbers.length + f.dates.length;
  if (literals) {
    const onTime = f.columns.some((c) => ev.temporalColumns.has(c)) && ev.timeRange;
    return (
      f.strings.every((s) => stringSaid(s, ev)) &&
      f.numbers.every((n) => numberSaid(n, ev)) &&
      f.dates.every((d) => onTime || dateSaid(d, ev))
    );
  }
  const named = f.columns.length > 0 && f.columns.every((c) => ev.columns.has(c));
  if (f.nullTest) return named && ev.absence;
  return named;
}

function stringSaid(s: string, ev: RequestEvidence): boolean {
  const lower = s.toLowerCase();
  // A LIKE pattern's wildcards are the draft's, not the person's: `%ha%` is said as `ha`.
  const bare = lower.replace(/^%+|%+$/g, '');
  if (ev.values.has(lower) || ev.values.has(bare)) return true;
  if (bare.length < 2) return false;
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u').test(ev.text);
}

function numberSaid(n: number, ev: RequestEvidence): boolean {
  return [...ev.numbers].some((x) => Math.abs(x - n) < 1e-9);
}

/**
 * A date bound said: one the reading's time ranges produced, or one whose year the request says
 * (`in 2019` drafted as `>= '2019-01-01'`), or the first day of the year after one it says (the
 * end bound `< '2020-01-01'` of that same year).
 */
function dateSaid(d: string, ev: RequestEvidence): boolean {
  const day = d.slice(0, 10);
  if (ev.dates.has(day)) return true;
  const year = Number(day.slice(0, 4));
  if (ev.numbers.has(year)) return true;
  return day.endsWith('-01-01') && ev.numbers.has(year - 1);
}
