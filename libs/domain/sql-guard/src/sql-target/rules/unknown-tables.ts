import { closeMatches, listNames } from '../../suggest';
import type { SqlTargetRule } from '../rule';

/** Every table after FROM or JOIN is one the database has (or a CTE of the query). */
export const unknownTables: SqlTargetRule = {
  id: 'unknown-tables',
  check(q, out) {
    const known = [...new Set([...q.g.streams, ...(q.g.stream ? [q.g.stream] : [])])];
    if (known.length === 0) return;
    const knownLower = new Set(known.map((x) => x.toLowerCase()));
    for (const table of q.tables) {
      if (table.derived || knownLower.has(table.full.toLowerCase()) || knownLower.has(table.key)) continue;
      const close = closeMatches(table.full, known);
      out.error(
        `unknown table '${table.full}'${close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : ''}; known tables: ${listNames(known)}`,
        table.index,
      );
    }
  },
};
