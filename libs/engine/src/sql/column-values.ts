import type { Column } from '@nl2p/envelope';
import type { StreamInfo } from '../port';

/**
 * Distinct values read per text column. Beyond a few dozen a column holds names (cities, states,
 * businesses) rather than categories; the linker still links a name said in full, through an
 * index, so the bound is about memory and catalog time, not about what is worth linking.
 */
export const MAX_INDEXED_VALUES = 2000;
/** A value longer than this is free text (a description, a message), not something a request names. */
const MAX_VALUE_LENGTH = 60;

/** Table → text column → its distinct values, for linking a request's words to data. */
export type ColumnValues = Record<string, Record<string, string[]>>;

const TEXT_TYPE = /^(varchar|text|string|character varying|char|character|bpchar|enum)/i;

export function isTextColumn(column: Column): boolean {
  return TEXT_TYPE.test(column.data_type);
}

/** `"name"` with embedded quotes doubled: both SQL targets quote identifiers this way. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The distinct short values of every text column (at most {@link MAX_INDEXED_VALUES}), read once
 * per catalog load and cached with it, so `dev-03`, `north` or `New York` in a request links to
 * its column. Each column is one bounded query under the target's time limit; a column whose
 * query fails, or that has more values than the bound, is left out rather than failing the
 * catalog (a part of its values would make the absence of a name look like a fact).
 */
export async function readColumnValues(
  tables: readonly StreamInfo[],
  distinct: (sql: string) => Promise<unknown[]>,
): Promise<ColumnValues> {
  const values: ColumnValues = {};
  for (const table of tables) {
    for (const column of table.columns.filter(isTextColumn)) {
      const sql =
        `SELECT DISTINCT ${quoteIdentifier(column.name)} FROM ${quoteIdentifier(table.name)}` +
        ` WHERE ${quoteIdentifier(column.name)} IS NOT NULL LIMIT ${MAX_INDEXED_VALUES + 1}`;
      try {
        const found = (await distinct(sql)).map(String);
        const short = found.filter((v) => v.length <= MAX_VALUE_LENGTH);
        if (short.length > 0 && found.length <= MAX_INDEXED_VALUES) {
          (values[table.name] ??= {})[column.name] = short.sort();
        }
      } catch {
        // A column we cannot read is only a column we cannot link values to.
      }
    }
  }
  return values;
}
