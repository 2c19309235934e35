import type { StreamInfo } from '../port';

/**
 * The tables with the comments their database keeps (`COMMENT ON TABLE/COLUMN`): words a schema's
 * authors chose to say what a terse name means (`atm` → "automatic gearbox"), read by the linker
 * like the names. `rows`: table_name, column_name (null for the table's own), comment.
 */
export function withComments(tables: StreamInfo[], rows: Record<string, unknown>[]): StreamInfo[] {
  for (const row of rows) {
    const comment = typeof row.comment === 'string' ? row.comment.trim() : '';
    const t = tables.find((x) => x.name === String(row.table_name));
    if (!t || !comment) continue;
    if (row.column_name === null || row.column_name === undefined) {
      t.comment = comment;
      continue;
    }
    const i = t.columns.findIndex((c) => c.name === String(row.column_name));
    const column = t.columns[i];
    if (column) t.columns[i] = { ...column, comment };
  }
  return tables;
}
