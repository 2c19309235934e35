import { ownKey } from '../schema-index';
import { singular } from '../text';
import { isGrouped, type ReadingRule, type ReadingState } from './state';

/**
 * `which apartments have bookings confirmed`, `the policy types of the customer named …`: rows
 * shown only from tables joined on their own key (the "one" side of each join) repeat once per
 * row on the other side (one apartment per booking). What is asked is each of them once: DISTINCT,
 * said as a reading. Not when a column of the finest table is shown (each row is then one of its
 * rows), nor when anything is counted or grouped.
 */
export const repeatedRows: ReadingRule = {
  name: 'repeated-rows',
  apply(s) {
    if (s.distinct || s.aggregates.length || isGrouped(s) || s.extreme || s.joins.size === 0) return;
    const shown = shownTables(s);
    if (!shown || !shown.size || !sortsOnShown(s)) return;
    const repeated = repeatedTables(s);
    if (![...shown].every((t) => repeated.has(t))) return;
    s.distinct = true;
    s.readings.push(`each ${[...shown].join(' and ')} row is shown once, however many joined rows it has`);
  },
};

/** The tables the shown columns come from; null when something else is shown (`*`, a computed value). */
function shownTables(s: ReadingState): Set<string> | null {
  const tables = new Set<string>();
  for (const p of s.select) {
    if (p.kind !== 'value' || p.expr.kind !== 'column' || p.expr.ref.path?.length) return null;
    tables.add(p.expr.ref.table ?? s.source ?? '');
  }
  return tables;
}

/**
 * Each row once and sorted on a column not shown cannot both be: which of an apartment's bookings
 * would place it? The rows then stay as joined (and the order says how).
 */
function sortsOnShown(s: ReadingState): boolean {
  const shown = new Set(s.select.map((p) => (p.kind === 'value' ? JSON.stringify(p.expr) : '')));
  return s.orderBy.every((o) => o.key.kind === 'value' && shown.has(JSON.stringify(o.key.expr)));
}

/** Tables joined on their own key from another table's column: their rows repeat per row of that table. */
function repeatedTables(s: ReadingState): Set<string> {
  const out = new Set<string>();
  for (const [table, j] of s.joins) {
    const from = j.from ?? s.source;
    if (!from) continue;
    const joinedOnKey = isOwnKey(s, table, j.right);
    const fromOnKey = isOwnKey(s, from, j.left);
    if (joinedOnKey && !fromOnKey) out.add(table);
    if (fromOnKey && !joinedOnKey) out.add(from);
  }
  return out;
}

function isOwnKey(s: ReadingState, table: string, column: string): boolean {
  const pk = s.schema.keys?.[table]?.primaryKey ?? [];
  if (pk.length) return pk.length === 1 && pk[0] === column;
  const info = s.index.table(table);
  return !!info && ownKey(info, singular)?.column === column;
}
