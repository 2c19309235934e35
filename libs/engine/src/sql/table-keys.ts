import type { StreamInfo } from '../port';

/**
 * The tables with the keys they declare (a table without any stays as it was). `rows`: table_name,
 * constraint_type (`PRIMARY KEY` or `FOREIGN KEY`), constraint_column_names, referenced_table,
 * referenced_column_names, as both databases' key queries return them.
 */
export function withKeys(tables: StreamInfo[], rows: Record<string, unknown>[]): StreamInfo[] {
  const names = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  for (const row of rows) {
    const t = tables.find((x) => x.name === String(row.table_name));
    if (!t) continue;
    if (row.constraint_type === 'PRIMARY KEY') t.primaryKey = names(row.constraint_column_names);
    else if (typeof row.referenced_table === 'string') {
      const fk = { columns: names(row.constraint_column_names), references: { table: row.referenced_table, columns: names(row.referenced_column_names) } };
      t.foreignKeys = [...(t.foreignKeys ?? []), fk];
    }
  }
  return tables;
} // prettier-ignore
