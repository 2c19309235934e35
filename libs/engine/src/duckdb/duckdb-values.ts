import {
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  dateFromTimestampMillisecondsValue,
  dateFromTimestampNanosecondsValue,
  dateFromTimestampSecondsValue,
  dateFromTimestampTZValue,
  dateFromTimestampValue,
  doubleFromDecimalValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';
import type { Column } from '@nl2p/envelope';
import { bigintToJson } from '../sql/json-values';

type DateConverter = (value: DuckDBValue) => Date;

/** JS dates cannot hold DuckDB's `infinity` or year 300000, so those keep DuckDB's own text. */
function isoTimestamp(convert: DateConverter): DuckDBValueConverter<Json> {
  return (value) => {
    try {
      return convert(value).toISOString();
    } catch {
      return String(value);
    }
  };
}

const TIMESTAMP_CONVERTERS: Partial<Record<DuckDBTypeId, DuckDBValueConverter<Json>>> = {
  [DuckDBTypeId.TIMESTAMP]: isoTimestamp(dateFromTimestampValue),
  [DuckDBTypeId.TIMESTAMP_S]: isoTimestamp(dateFromTimestampSecondsValue),
  [DuckDBTypeId.TIMESTAMP_MS]: isoTimestamp(dateFromTimestampMillisecondsValue),
  [DuckDBTypeId.TIMESTAMP_NS]: isoTimestamp(dateFromTimestampNanosecondsValue),
  [DuckDBTypeId.TIMESTAMP_TZ]: isoTimestamp(dateFromTimestampTZValue),
};

/**
 * DuckDB's JSON converter with the preview conventions of `jsonSafe` (`sql/json-values.ts`): it already renders
 * dates, times, intervals, UUIDs and nested types safely, but spells BIGINT and DECIMAL as strings
 * and timestamps without the `T`. Nested values recurse through this converter too.
 */
export const previewValueConverter: DuckDBValueConverter<Json> = (value: DuckDBValue, type: DuckDBType, _self) => {
  if (value === null) return null;
  const timestamp = TIMESTAMP_CONVERTERS[type.typeId];
  if (timestamp) return timestamp(value, type, previewValueConverter);
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return typeof value === 'bigint' ? bigintToJson(value) : String(value);
    case DuckDBTypeId.DECIMAL:
      return doubleFromDecimalValue(value);
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return typeof value === 'number' && !Number.isFinite(value) ? String(value) : (value as number);
    default:
      return JsonDuckDBValueConverter(value, type, previewValueConverter);
  }
};

/**
 * Maps a DuckDB type as `information_schema.columns.data_type` spells it to a {@link Column}:
 * `STRUCT(a INTEGER, "b c" VARCHAR)` becomes `struct` with `fields`, `DOUBLE[]` and `INTEGER[3]`
 * become `list` with an `element`, and everything else is the type in lower case
 * (`timestamp`, `decimal(10,2)`, `map(varchar, integer)`), enum labels kept as written.
 */
export function duckDbColumn(name: string, type: string): Column {
  const t = type.trim();
  const list = /^(.*)\[\d*\]$/s.exec(t);
  if (list?.[1] !== undefined) return { name, data_type: 'list', element: duckDbColumn('element', list[1]) };
  const struct = /^STRUCT\s*\((.*)\)$/is.exec(t);
  if (struct?.[1] !== undefined) {
    return { name, data_type: 'struct', fields: splitTopLevel(struct[1]).map(parseStructField) };
  }
  return { name, data_type: lowerOutsideQuotes(t) };
}

function parseStructField(field: string): Column {
  const f = field.trim();
  if (f.startsWith('"')) {
    let i = 1;
    let name = '';
    while (i < f.length) {
      if (f[i] === '"' && f[i + 1] === '"') {
        name += '"';
        i += 2;
      } else if (f[i] === '"') {
        break;
      } else {
        name += f[i];
        i++;
      }
    }
    return duckDbColumn(name, f.slice(i + 1));
  }
  const space = f.search(/\s/);
  return space < 0 ? { name: f, data_type: 'unknown' } : duckDbColumn(f.slice(0, space), f.slice(space + 1));
}

/** Splits on commas outside parentheses, brackets and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '(' || ch === '[') {
      depth++;
    } else if (ch === ')' || ch === ']') {
      depth--;
    } else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p.trim() !== '');
}

function lowerOutsideQuotes(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else {
      if (ch === '"' || ch === "'") quote = ch;
      out += ch.toLowerCase();
    }
  }
  return out;
}
