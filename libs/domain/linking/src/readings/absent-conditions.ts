import { parseQueryPlan, type Condition, type Join } from '@nl2p/query-plan';
import type { TermLink } from '../types';
import { doubt, isTableMention } from './lookup';
import type { AbsentRows, ReadingRule, ReadingState } from './state';

/**
 * What is said of rows said absent belongs to them, not to the rows answered: `programs never
 * broadcast in the morning` are programs with no broadcast row in the morning (NOT EXISTS a
 * morning broadcast), not programs broadcast in the morning that have no broadcast at all;
 * `trains that do not pass any station located in London` test the station's city inside the
 * sub-query. A condition goes in when every column it names lies on the way to the absent rows
 * (not the source); the sub-query then joins as far as its conditions reach, and a join the
 * answer no longer needs is dropped (it would multiply or narrow the rows). A comparison on the
 * source said inside the negated phrase (`locations which don't have a station with at least 15
 * platforms`) cannot be placed: it is a doubt, never a condition silently moved out of the `not`.
 * Runs once the plan's parts are decided, so only joins nothing else uses are dropped.
 */
export const absentConditions: ReadingRule = {
  name: 'absent-conditions',
  apply(s) {
    for (const t of unplacedAbsences(s))
      doubt(s, `"${t.text}" is said absent, but the answer reads ${isTableMention(s, t)} rows`);
    for (const a of s.absent) {
      const onPath = new Set(a.path.map((j) => j.table));
      const moved = s.conditions.filter((c) => {
        const tables = tablesOf(s, c);
        return c !== a.condition && tables.length > 0 && tables.every((t) => onPath.has(t));
      });
      const before = moved.filter((c) => saidBefore(s, c, a));
      if (before.length) doubt(s, 'a condition on the rows said absent is said before the negation');
      else if (moved.length) moveInto(s, a, moved);
      // The absence brought its tables into scope (absence); nothing outside needs them now.
      dropUnusedJoins(s, new Set(a.path.map((j) => j.table)));
      // Joined on the very key the absence tests, no row could be left: the words read two ways.
      const first = a.path[0]?.table;
      if (first && s.joins.has(first))
        doubt(s, `the ${first} rows said absent are also joined to the answer (the request reads two ways)`);
      const outside = sourceComparisonsAfter(s, a);
      if (outside.length)
        doubt(s, `"${outside.join('", "')}" is said after the negation, but is a condition on ${s.source} rows`);
    }
  },
};

/** Moves `moved` into the NOT EXISTS sub-query, which joins the path as far as they reach. */
function moveInto(s: ReadingState, a: AbsentRows, moved: Condition[]): void {
  const needed = new Set(moved.flatMap((c) => tablesOf(s, c)));
  const last = Math.max(...a.path.map((j, k) => (needed.has(j.table) ? k : 0)));
  const [first, ...rest] = a.path.slice(0, last + 1);
  if (!first) return;
  const inner = moved.map((c) => unqualify(c, first.table));
  a.condition.subquery.plan = parseQueryPlan({
    source: first.table,
    joins: rest.map((j: Join) => ({ ...j, kind: 'inner' as const })),
    where: inner.length === 1 ? inner[0] : { kind: 'and', conditions: inner },
  });
  s.conditions = s.conditions.filter((c) => !moved.includes(c));
  dropUnusedJoins(s, new Set(a.path.map((j) => j.table)));
  s.readings.push(`what is said of the absent ${first.table} rows is tested inside the absence`);
}

/** The tables a condition's columns belong to (the source for a bare column), sub-queries left out. */
function tablesOf(s: ReadingState, c: unknown): string[] {
  const found = new Set<string>();
  walkRefs(c, (table) => found.add(table ?? s.source ?? ''));
  return [...found];
}

/** Calls `seen` with the table of every column reference in `node`, not descending into sub-queries. */
function walkRefs(node: unknown, seen: (table: string | null) => void): void {
  walkColumns(node, (table) => seen(table));
}

/** The condition with the sub-query's own table left bare (as its plan names its source). */
export function unqualify(c: Condition, table: string): Condition {
  return JSON.parse(JSON.stringify(c), (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (typeof o.column === 'string' && o.table === table && !('kind' in o)) {
        return Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'table'));
      }
    }
    return v;
  }) as Condition;
}

/** Drops the joins to `candidates` that nothing the outer plan says refers to (and no other join leaves from). */
export function dropUnusedJoins(s: ReadingState, candidates: Set<string>): void {
  for (let changed = true; changed;) {
    changed = false;
    const referred = outerTables(s);
    for (const [table] of s.joins) {
      const leftFrom = [...s.joins.values()].some((k) => k.from === table);
      if (!candidates.has(table) || referred.has(table) || leftFrom) continue;
      s.joins.delete(table);
      s.scope.splice(s.scope.indexOf(table), 1);
      changed = true;
    }
  }
}

/** The tables the outer plan's parts name (all its conditions but `except`). */
export function outerTables(s: ReadingState, except?: Condition): Set<string> {
  const found = new Set<string>();
  const parts = [
    s.select,
    s.conditions.filter((c) => c !== except),
    s.orderBy,
    s.having,
    s.aggregates.map((a) => a.agg),
    s.extreme,
    s.timeBucket,
  ];
  walkRefs(parts, (table) => table && found.add(table));
  for (const k of s.groupKeys) found.add(k.table);
  if (s.timeColumn) found.add(s.timeColumn.table);
  return found;
}

/** Comparisons said after the absent rows that stayed conditions on the source itself. */
function sourceComparisonsAfter(s: ReadingState, a: AbsentRows): string[] {
  return [...s.comparedBy].flatMap(([link, c]) =>
    link.start > a.start && s.conditions.includes(c) && tablesOf(s, c).every((t) => t === s.source) ? [link.text] : [],
  );
}

/**
 * Tables said absent that the answer reads instead (`programs that have no broadcasts longer than
 * 30 minutes` read from broadcast): the negation went nowhere, and an answer without it is wrong.
 */
function unplacedAbsences(s: ReadingState): TermLink[] {
  const placed = new Set(s.absent.flatMap((a) => a.path.map((j) => j.table)));
  return s.links.terms.filter((t) => {
    const table = t.negated && !t.values.length ? isTableMention(s, t) : null;
    const excepted = !!s.excepted && table === s.source;
    return !!table && s.scope.includes(table) && !placed.has(table) && !excepted;
  });
}

/** A condition some word before the negation said (`broadcast in the morning that are never …`): not the absent rows'. */
function saidBefore(s: ReadingState, c: Condition, a: AbsentRows): boolean {
  const columns = new Set<string>();
  walkColumns(c, (table, column) => columns.add(`${table ?? s.source}.${column}`));
  const byValue = s.links.terms.some(
    (t) => t.start < a.start && t.values.some((v) => columns.has(`${v.table}.${v.column}`)),
  );
  const byComparison = [...s.comparedBy].some(([link, said]) => said === c && link.start < a.start);
  return byValue || byComparison;
}

/** Calls `seen` with the table and name of every column reference in `node`, sub-queries left out. */
function walkColumns(node: unknown, seen: (table: string | null, column: string) => void): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walkColumns(n, seen);
    return;
  }
  const o = node as Record<string, unknown>;
  if (typeof o.column === 'string' && !('kind' in o)) seen(typeof o.table === 'string' ? o.table : null, o.column);
  for (const [k, v] of Object.entries(o)) if (k !== 'subquery') walkColumns(v, seen);
}
