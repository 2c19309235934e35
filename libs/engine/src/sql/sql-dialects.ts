import type {
  ColumnRef,
  DatePart,
  ElapsedUnit,
  Literal,
  RelativeMoment,
  TextMatch,
  TimeBucket,
} from '@nl2p/query-plan';
import { fullTimestamp, literalSql, quoteIfNeeded, stringLiteral, type PlanDialect } from './plan-sql';

/** Words both SQL targets reserve (a superset is harmless: it only adds quotes). */
const SQL_RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric both case cast check collate column constraint create ' +
    'current_date current_time current_timestamp current_user default deferrable desc distinct do else end except ' +
    'false fetch for foreign from grant group having in initially intersect into lateral leading limit localtime ' +
    'localtimestamp not null offset on only or order placing primary references returning select session_user some ' +
    'symmetric table then to trailing true union unique user using variadic when where window with qualify pivot ' +
    'unpivot join left right inner outer full cross natural is like ilike between'
  ).split(' '),
);

/**
 * `%` and `_` are wildcards in LIKE; a request's text matches them literally. The escape is `!`,
 * not a backslash: a backslash before a quote reads differently across SQL parsers, and the
 * single-SELECT guard refuses it.
 */
function likePattern(value: string, match: TextMatch): string {
  const escaped = value.replace(/[!%_]/g, (c) => `!${c}`);
  const pattern =
    match === 'contains'
      ? `%${escaped}%`
      : match === 'starts_with'
        ? `${escaped}%`
        : match === 'ends_with'
          ? `%${escaped}`
          : escaped;
  return `${stringLiteral(pattern)} ESCAPE '!'`;
}

const UNIT_WORD: Record<TimeBucket['unit'], string> = {
  second: 'second', minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year',
}; // prettier-ignore

/** `extract` field names; both databases count `dow` from Sunday = 0 and `week` as the ISO week. */
const EXTRACT_FIELD: Record<DatePart, string> = {
  year: 'year', quarter: 'quarter', month: 'month', week: 'week', day: 'day', day_of_week: 'dow', day_of_year: 'doy', hour: 'hour', minute: 'minute', second: 'second',
}; // prettier-ignore

const SUB_DAY = new Set<TimeBucket['unit']>(['second', 'minute', 'hour']);
const ELAPSED_SECONDS: Record<ElapsedUnit, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };

/**
 * A moment relative to the day the query runs, as both databases compute it: the start of the
 * current period (`date_trunc('month', CURRENT_DATE)`), today's start, or now for units under a
 * day, moved by an interval both read (`INTERVAL '30 day'`; quarters as months).
 */
function relativeMoment(m: RelativeMoment): string {
  const now = SUB_DAY.has(m.unit) || (m.start_of && SUB_DAY.has(m.start_of)) ? 'CURRENT_TIMESTAMP' : 'CURRENT_DATE';
  const anchor = m.start_of ? `date_trunc('${UNIT_WORD[m.start_of]}', ${now})` : now;
  if (m.amount === 0) return anchor;
  const [n, unit] = m.unit === 'quarter' ? [Math.abs(m.amount) * 3, 'month'] : [Math.abs(m.amount), UNIT_WORD[m.unit]];
  return `(${anchor} ${m.amount < 0 ? '-' : '+'} INTERVAL '${n} ${unit}')`;
} // prettier-ignore

/**
 * What DuckDB and PostgreSQL share; each adds its bucket for sizes above one, how it divides and
 * how it takes a date part.
 * Division by zero gives NULL on both (DuckDB alone would give Infinity, PostgreSQL an error).
 */
function sqlDialect(
  label: string,
  sizedBucket: (column: string, b: TimeBucket) => string,
  numerator: (left: string) => string,
  datePart: (field: string, column: string) => string,
  epoch: (column: string) => string,
): PlanDialect {
  const identifier = (name: string) => quoteIfNeeded(name, SQL_RESERVED);
  return {
    label,
    reserved: SQL_RESERVED,
    identifier,
    column(ref: ColumnRef, qualify: boolean) {
      const base = `${qualify && ref.table ? `${identifier(ref.table)}.` : ''}${identifier(ref.column)}`;
      // `(location).lat`: bare `location.lat` would read as table.column on PostgreSQL.
      return ref.path?.length ? `(${base})${ref.path.map((p) => `.${identifier(p)}`).join('')}` : base;
    },
    literal: (v: Literal) =>
      v.kind === 'timestamp' && v.relative
        ? relativeMoment(v.relative)
        : literalSql(v, { booleans: ['TRUE', 'FALSE'], timestamp: (t) => `TIMESTAMP '${fullTimestamp(t)}'` }),
    textMatch: (column, match, value) => `${column} ILIKE ${likePattern(value, match)}`,
    datePart: (part, column) => datePart(EXTRACT_FIELD[part], column),
    isNull: (column, negated) => `${column} IS ${negated ? 'NOT ' : ''}NULL`,
    divide: (left, right, safe) => `${numerator(left)} / ${safe ? right : `NULLIF(${right}, 0)`}`,
    // Seconds since the epoch on both sides (a date at its midnight), so the fraction is kept.
    elapsed: (unit, from, to) =>
      `(${epoch(to)} - ${epoch(from)})${unit === 'second' ? '' : ` / ${ELAPSED_SECONDS[unit]}`}`,
    bucket(column, b) {
      const start = b.size === 1 ? `date_trunc('${UNIT_WORD[b.unit]}', ${column})` : sizedBucket(column, b);
      return b.as_date ? `CAST(${start} AS DATE)` : start;
    },
    refuse() {},
    assumptions: () => [],
    aliasProblem: () => null,
    groupComputedValues: false,
  };
}

const plural = (b: TimeBucket) => `${b.size} ${UNIT_WORD[b.unit]}s`;
/** Months in a bucket of months, quarters or years; null for fixed-length units. */
const monthsOf = (b: TimeBucket) =>
  (({ month: 1, quarter: 3, year: 12 }) as Partial<Record<TimeBucket['unit'], number>>)[b.unit] ?? null;

/**
 * DuckDB's `time_bucket` counts months from 2000-01-01 and fixed strides from 2000-01-03 (a
 * Monday). Quarters are written as months: an interval of quarters is not DuckDB syntax.
 */
export const DUCKDB_DIALECT = sqlDialect(
  'DuckDB',
  (column, b) => {
    const months = monthsOf(b);
    const interval = months === 3 ? `${b.size * 3} months` : plural(b);
    return `time_bucket(INTERVAL '${interval}', ${column})`;
  },
  (left) => left,
  // BIGINT, whole seconds included.
  (field, column) => `extract(${field} FROM ${column})`,
  // Seconds with their fraction (a DATE is cast: its midnight).
  (column) => `epoch(CAST(${column} AS TIMESTAMP))`,
);

/**
 * PostgreSQL's `date_bin` takes fixed-length strides only, on the origin DuckDB's `time_bucket`
 * uses (2000-01-03, a Monday), so both targets put the same rows in the same buckets — for any
 * stride, not only those that divide a day. Buckets of several months (quarters, years) count
 * months from 2000-01-01 as DuckDB does: the month's start, less how far it is into its bucket.
 */
export const POSTGRES_DIALECT = sqlDialect(
  'PostgreSQL',
  (column, b) => {
    const months = monthsOf(b);
    if (months === null) return `date_bin('${plural(b)}', ${column}, TIMESTAMP '2000-01-03 00:00:00')`;
    const n = months * b.size;
    const sinceOrigin = `(extract(year FROM ${column})::int - 2000) * 12 + extract(month FROM ${column})::int - 1`;
    // mod() keeps the sign of its dividend: the outer mod makes months before 2000 count forward.
    return `date_trunc('month', ${column}) - make_interval(months => mod(mod(${sinceOrigin}, ${n}) + ${n}, ${n}))`;
    // Integer / integer truncates on PostgreSQL; DuckDB (and the plan) mean real division.
  },
  (left) => `${left}::numeric`,
  // extract() is numeric on PostgreSQL, with the fraction of a second: an integer, as on DuckDB.
  (field, column) =>
    field === 'second'
      ? `CAST(floor(extract(second FROM ${column})) AS integer)`
      : `CAST(extract(${field} FROM ${column}) AS integer)`,
  // A DATE is cast to its midnight, as on DuckDB (its own epoch would be read in the session's zone).
  (column) => `extract(epoch FROM CAST(${column} AS timestamp))`,
);
