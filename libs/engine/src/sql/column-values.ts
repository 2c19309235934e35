import type { Column } from '@nl2p/envelope';
import type { StreamInfo } from '../port';

/** A text column with more distinct values than this is not a category worth linking words to. */
export const MAX_LINKED_VALUES = 50;

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
 * The distinct values of every low-cardinality text column (at most {@link MAX_LINKED_VALUES}),
 * read once per catalog load and cached with it, so `dev-03` or `north` in a request links to
 * its column. Each column is one bounded query under the target's time limit; a column whose
 * query fails (or has too many values) is left out rather than failing the catalog.
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
        ` WHERE ${quoteIdentifier(column.name)} IS NOT NULL LIMIT ${MAX_LINKED_VALUES + 1}`;
      try {
        const found = (await distinct(sql)).map(String);
        if (found.length > 0 && found.length <= MAX_LINKED_VALUES) {
          (values[table.name] ??= {})[column.name] = found.sort();
        }
      } catch {
        // A column we cannot read is only a column we cannot link values to.
      }
    }
  }
  return values;
}
