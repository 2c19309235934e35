import { findJoinPath, parseQueryPlan, type Condition } from '@nl2p/query-plan';
import type { TermLink } from '../types';
import { keyedTables } from './join-key';
import { doubt, isTableMention, join, use } from './lookup';
import type { AbsentRows, ReadingRule, ReadingState } from './state';

/**
 * Rows of the source that have no rows in another table (`customers who have not placed any
 * orders`, `students who never attended a course`): NOT EXISTS a row of the first table on the
 * join path, tied to the source row by the key between them. Through a bridge table that is the
 * bridge (`attendance`): a course attended is a bridge row. NOT EXISTS rather than NOT IN, so
 * a NULL key counts as no row (an author with no organisation is in no organisation).
 */
export const absence: ReadingRule = {
  name: 'absence',
  apply(s) {
    const source = s.source;
    if (!source) return;
    const said = s.links.terms.flatMap((t) => {
      const table = t.negated && !t.values.length ? isTableMention(s, t) : null;
      return table && table !== source ? [{ t, table }] : [];
    });
    // The farthest of the rows said absent: the one whose way from the source passes the others
    // (`devices in stock`: a shop's stock rows hold its devices), else the last said.
    const object = [...said].reverse().find((x) => covers(s, source, x.table, said)) ?? said.at(-1);
    if (!object) return;
    const condition = absent(
      s,
      source,
      object.table,
      said.map((x) => x.t),
    );
    if (condition) s.conditions.push(condition);
  },
};

/** The join path from `source` to `table` passes every table said absent. */
function covers(s: ReadingState, source: string, table: string, said: readonly { table: string }[]): boolean {
  const path = findJoinPath(keyedTables(s.schema), source, [table]);
  const onPath = new Set(path?.joins.map((j) => j.table) ?? []);
  return said.every((x) => onPath.has(x.table));
}

/** NOT EXISTS a row of the first table on the path to `table`; every term said absent must lie on that path. */
function absent(s: ReadingState, source: string, table: string, terms: TermLink[]): Condition | null {
  const said = terms.map((t) => t.text).join(' ');
  if (s.schema.streaming) return fail(s, said, 'a stream is not joined');
  const path = findJoinPath(keyedTables(s.schema), source, [table]);
  const first = path?.joins[0];
  const on = first?.on.length === 1 ? first.on[0] : undefined;
  if (!path || !first || !on) return fail(s, said, `no key relates ${source} to ${table}`);
  if (path.assumption) return fail(s, said, `${source} and ${table} are related in more than one way`);
  const onPath = new Set(path.joins.map((j) => j.table));
  const off = terms.find((t) => !onPath.has(isTableMention(s, t) ?? ''));
  if (off) return fail(s, said, `"${off.text}" is not on the way from ${source} to ${table}`);
  for (const t of terms) use(s, t);
  // In scope, what is said of the absent rows (`a wedding in 2015`) finds its columns there; the
  // conditions then move into the sub-query and the joins are dropped (absent-conditions).
  for (const j of path.joins) join(s, j.table);
  s.readings.push(`"${said}" said absent: ${source} rows with no ${first.table} row`);
  const condition: AbsentRows['condition'] = {
    kind: 'exists',
    negated: true,
    subquery: {
      plan: parseQueryPlan({ source: first.table }),
      correlate: [{ outer: { column: on.left.column }, inner: { column: on.right.column } }],
    },
  };
  // What is said of the absent rows (`never broadcast in the morning`) joins them later (absent-conditions).
  s.absent.push({ condition, path: path.joins, start: Math.min(...terms.map((t) => t.start)) });
  return condition;
}

function fail(s: ReadingState, said: string, why: string): null {
  doubt(s, `"${said}" is said absent, but ${why}`);
  return null;
}
