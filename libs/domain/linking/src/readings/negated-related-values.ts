import { findJoinPath, parseQueryPlan, type Condition } from '@nl2p/query-plan';
import { dropUnusedJoins, outerTables, unqualify } from './absent-conditions';
import { keyedTables } from './join-key';
import type { ReadingRule, ReadingState } from './state';

/**
 * A value negated in a table the source has many rows of: `dorms that do not have a TV lounge`,
 * `programs not broadcast in the morning`, `companies that do not make DVD drives`. A row of the
 * source has several related rows, and "not X" says none of them is X: NOT EXISTS a related row
 * with X. A join with `!= X` would keep every dorm that has any other amenity, and answer as if
 * it had read the `not`. Said of a table the source has one row of (an order's customer), the
 * `!=` is right and stays. Keys decide which: the joined column is the table's primary key (one
 * row), or a foreign key the table holds to the one before it (many rows); unknown keys change
 * nothing.
 */
export const negatedRelatedValues: ReadingRule = {
  name: 'negated-related-values',
  apply(s) {
    if (s.schema.streaming || !s.source) return;
    const moved: string[] = [];
    s.conditions = s.conditions.map((c) => {
      const positive = positiveOf(c);
      const table = positive ? onlyTable(positive) : null;
      // A related row that is shown (`dorms and their amenities other than …`) is joined on purpose.
      if (!positive || !table || outerTables(s, c).has(table) || !manyRowsOf(s, table)) return c;
      const absent = notExists(s, table, positive);
      if (!absent) return c;
      moved.push(table);
      return absent;
    });
    if (!moved.length) return;
    dropUnusedJoins(s, new Set(moved.flatMap((t) => pathTo(s, t)?.map((j) => j.table) ?? [])));
    s.readings.push(`a value said not to be in ${[...new Set(moved)].join(', ')} is read as no such related row`);
  },
};

/** `col != v` → `col = v`; `col NOT IN (…)` → `col IN (…)`; anything else is no negated value. */
function positiveOf(c: Condition): Condition | null {
  if (c.kind === 'compare' && c.op === '!=') return { ...c, op: '=' };
  if (c.kind === 'in' && c.negated) return { ...c, negated: false };
  return null;
}

/** The joined table a negated value's column belongs to (null for the source's own column). */
function onlyTable(c: Condition): string | null {
  const ref = c.kind === 'compare' ? (c.left.kind === 'column' ? c.left.ref : null) : c.kind === 'in' ? c.column : null;
  return ref?.table ?? null;
}

/** The source has many rows in `table`: on some join from the source to it, the key is not the primary key of the side reached. */
function manyRowsOf(s: ReadingState, table: string): boolean {
  const path = pathTo(s, table);
  if (!path?.length) return false;
  return path.some((j) => {
    const on = j.on.length === 1 ? j.on[0] : undefined;
    const keys = s.schema.keys?.[j.table];
    if (!on || !keys) return false;
    const primary = keys.primaryKey ?? [];
    const holdsForeign = (keys.foreignKeys ?? []).some(
      (f) => f.columns.length === 1 && f.columns[0] === on.right.column && f.references.table === on.left.table,
    );
    return holdsForeign || (primary.length > 0 && !(primary.length === 1 && primary[0] === on.right.column));
  });
}

/** The joins from the source to `table`, when only one path is as short. */
function pathTo(s: ReadingState, table: string) {
  const path = findJoinPath(keyedTables(s.schema), s.source ?? '', [table]);
  return path && !path.assumption ? path.joins : null;
}

/** NOT EXISTS a related row of `table` (along the path from the source) meeting `positive`. */
function notExists(s: ReadingState, table: string, positive: Condition): Condition | null {
  const [first, ...rest] = pathTo(s, table) ?? [];
  const on = first?.on.length === 1 ? first.on[0] : undefined;
  if (!first || !on) return null;
  return {
    kind: 'exists',
    negated: true,
    subquery: {
      plan: parseQueryPlan({ source: first.table, joins: rest, where: unqualify(positive, first.table) }),
      correlate: [{ outer: { column: on.left.column }, inner: { column: on.right.column } }],
    },
  };
}
