import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import type { Column } from '@nl2p/envelope';
import { classifyType } from '@nl2p/query-plan';
import { valueText } from './join-keys';

/** A scan's rows as they came back from its source (JSON-safe preview values). */
export interface PartRows {
  columns: string[];
  rows: unknown[][];
}

type CombineType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'TIMESTAMP' | 'BOOLEAN';

/** The combine's column type for a source column type (decimals as doubles: previews carry numbers). */
export function combineType(dataType: string): CombineType {
  const t = dataType.trim().toLowerCase();
  switch (classifyType(t)) {
    case 'number':
      return /^(tinyint|smallint|integer|int|bigint|int\d|serial|bigserial|smallserial|hugeint|ubigint|uinteger|usmallint|utinyint)\b/.test(t)
        ? 'BIGINT'
        : 'DOUBLE';
    case 'time':
      return 'TIMESTAMP';
    case 'boolean':
      return 'BOOLEAN';
    default:
      return 'VARCHAR';
  }
} // prettier-ignore

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Creates one table of the combine for a scan's result and fills it through DuckDB's appender:
 * values travel as typed values, never as SQL text. Only the table's own definition is written
 * as SQL, from names the decomposer gave (quoted).
 */
export async function registerPart(
  connection: DuckDBConnection,
  table: string,
  columns: readonly Column[],
  part: PartRows,
): Promise<void> {
  const types = columns.map((c) => combineType(c.data_type));
  const ddl = columns.map((c, i) => `${quote(c.name)} ${types[i]}`).join(', ');
  await connection.run(`CREATE TABLE ${quote(table)} (${ddl})`);
  const positions = columns.map((c) => {
    const at = part.columns.indexOf(c.name);
    if (at < 0) throw new Error(`the part ${table} returned no column ${c.name}`);
    return at;
  });
  const appender = await connection.createAppender(table);
  try {
    for (const row of part.rows) {
      positions.forEach((at, i) => appendCell(appender, row[at], types[i]));
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

function appendCell(appender: DuckDBAppender, value: unknown, type: CombineType): void {
  if (value === null || value === undefined) return appender.appendNull();
  switch (type) {
    case 'BIGINT':
      return appender.appendBigInt(BigInt(typeof value === 'number' ? Math.trunc(value) : valueText(value)));
    case 'DOUBLE':
      return appender.appendDouble(Number(value));
    case 'BOOLEAN':
      return appender.appendBoolean(value === true || value === 'true');
    case 'TIMESTAMP': {
      const ms = Date.parse(normaliseTime(valueText(value)));
      if (Number.isNaN(ms)) return appender.appendNull();
      return appender.appendTimestamp(new DuckDBTimestampValue(BigInt(ms) * 1000n));
    }
    case 'VARCHAR':
      return appender.appendVarchar(typeof value === 'string' ? value : JSON.stringify(value));
  }
}

/** Previews give ISO-8601 UTC (`…Z`); a bare date or a zone-less time is read as UTC too. */
function normaliseTime(text: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00Z`;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) return `${text.replace(' ', 'T')}Z`;
  return text;
}
