import { types, type CustomTypesConfig } from 'pg';
import { bigintToJson } from '../sql/json-values';

/**
 * Result parsers for previews, matching the DuckDB target's conventions so both SQL targets show
 * the same values for the same rows: integers as numbers (strings beyond 2^53), numerics as
 * numbers, timestamps as ISO-8601 UTC strings, dates as `YYYY-MM-DD`. pg's defaults differ on
 * purpose (BIGINT and NUMERIC as strings, `timestamp` read as *local* time into a Date), so they
 * are replaced here rather than relied on. The preview session runs with `TimeZone = 'UTC'` and
 * `DateStyle = 'ISO, YMD'`, which is the text these parsers expect.
 */

const OID = {
  BYTEA: 17,
  INT8: 20,
  FLOAT4: 700,
  FLOAT8: 701,
  DATE: 1082,
  TIME: 1083,
  TIMESTAMP: 1114,
  TIMESTAMPTZ: 1184,
  INTERVAL: 1186,
  TIMETZ: 1266,
  NUMERIC: 1700,
  MONEY: 790,
} as const;

const TIMESTAMP_TEXT =
  /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?$/;

/**
 * `2024-03-01 12:00:00.123456` (or with an offset, `+00`, `+05:30`) as
 * `2024-03-01T12:00:00.123Z`; `infinity`, BC dates and years before 1000 keep PostgreSQL's text.
 */
export function isoFromPgTimestamp(text: string): string {
  const m = TIMESTAMP_TEXT.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om, os] = m;
  const year = Number(y);
  if (year < 1000) return text;
  const ms = Number((frac ?? '').padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const offsetS = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) : 0;
  const date = new Date(utc - offsetS * 1000);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

function numberOrText(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

const identity = (text: string): string => text;

const PARSERS: Record<number, (text: string) => unknown> = {
  [OID.INT8]: (text) => bigintToJson(BigInt(text)),
  [OID.NUMERIC]: numberOrText,
  [OID.FLOAT4]: numberOrText,
  [OID.FLOAT8]: numberOrText,
  [OID.TIMESTAMP]: isoFromPgTimestamp,
  [OID.TIMESTAMPTZ]: isoFromPgTimestamp,
  [OID.DATE]: identity,
  [OID.TIME]: identity,
  [OID.TIMETZ]: identity,
  [OID.INTERVAL]: identity,
  [OID.BYTEA]: identity,
  [OID.MONEY]: identity,
};

/** The `types` option for preview queries; other types use pg's own parsers. */
export const previewTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const parser = (format ?? 'text') === 'text' ? PARSERS[oid] : undefined;
    return parser ?? (types.getTypeParser(oid, format ?? 'text') as (text: string) => unknown);
  }) as CustomTypesConfig['getTypeParser'],
};
