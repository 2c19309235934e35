import pluralize from 'pluralize';
import { classifyType } from './names';
import type { Join } from './plan';

/** A declared foreign key: `columns` of the table holding it reference `references.columns`. */
export interface ForeignKey {
  columns: string[];
  references: { table: string; columns: string[] };
}

/** What a join path is found over: each table's columns (names and types) and the keys it declares. */
export type KeyedTables = Readonly<
  Record<string, { columns: readonly { name: string; data_type: string }[]; primaryKey?: readonly string[]; foreignKeys?: readonly ForeignKey[] }>
>; // prettier-ignore

/** One way two tables join: `from.columns[i] = to.columns[i]`, declared or inferred. */
export interface JoinEdge {
  from: string;
  fromColumns: string[];
  to: string;
  toColumns: string[];
  declared: boolean;
}

/** The joins that reach every table asked for from the source, shortest first. */
export interface JoinPath {
  /** In order: each join's left side is a table already in scope. */
  joins: Join[];
  /** Tables the path passes through that were not asked for (bridge tables). */
  through: string[];
  /** When another path of the same length exists: the sentence the turn shows as an assumption. */
  assumption: string | null;
}

/**
 * The key graph: the foreign keys the database declares, and for tables no declared key touches
 * (neither holding one nor referenced by one), keys inferred from names, each to a table that owns the key (`sales.car_id` → `cars.id`; `orders.customer_id`
 * → `customers.customer_id`, the table named by the key or whose primary key it is), with both
 * columns of one type. Two tables merely sharing a column are not joined: `sales.id = cars.id`
 * compares two unrelated row numbers, and two tables that both hold `customer_id` are siblings
 * (joining them multiplies rows), reached through `customers` instead.
 */
export function joinEdges(tables: KeyedTables): JoinEdge[] {
  const declared = Object.entries(tables).flatMap(([table, t]) =>
    (t.foreignKeys ?? []).filter((fk) => tables[fk.references.table]).map((fk): JoinEdge => ({ from: table, fromColumns: [...fk.columns], to: fk.references.table, toColumns: [...fk.references.columns], declared: true })),
  ); // prettier-ignore
  const covered = new Set(declared.flatMap((e) => [e.from, e.to]));
  const edges: JoinEdge[] = [...declared];
  for (const [from, t] of Object.entries(tables)) {
    if (covered.has(from)) continue;
    for (const column of t.columns) {
      const name = column.name.toLowerCase();
      if (name === 'id' || !name.endsWith('id')) continue;
      for (const [to, target] of Object.entries(tables)) {
        if (to === from || covered.has(to)) continue;
        const key = ownedKey(to, target, name);
        if (key && sameClass(column.data_type, key.data_type)) edges.push({ from, fromColumns: [column.name], to, toColumns: [key.name], declared: false });
      }
    }
  }
  return edges;
} // prettier-ignore

/**
 * The column of `table` that a column named `name` elsewhere points at: its primary key when the
 * name is the key's own (`customer_id`), `id` when the name is the table's singular plus `_id`.
 */
function ownedKey(table: string, t: KeyedTables[string], name: string): { name: string; data_type: string } | null {
  const find = (n: string) => t.columns.find((c) => c.name.toLowerCase() === n) ?? null;
  const pk = t.primaryKey?.length === 1 ? t.primaryKey[0].toLowerCase() : null;
  if (pk === name) return find(name);
  const own = `${pluralize.singular(table.toLowerCase())}_id`;
  const bare = own.replace(/_id$/, 'id');
  if (name === own || name === bare)
    // The table holds the same name (its own key, `customers.customer_id`) or calls it `id`.
    return (pk === null || pk === name ? find(name) : null) ?? (pk === null || pk === 'id' ? find('id') : null);
  // A key named by the table's initials (`conference.cid`, `domain.did`) is its own only as its
  // first column, as such schemas write the key, and only without a declared key to say otherwise.
  const first = t.columns[0];
  return pk === null && first?.name.toLowerCase() === name && initialsKey(table).includes(name) ? first : null;
}

/** The names a key by initials takes: `cid`/`c_id` for conference, `jid` for journal, `dbid` for data_base. */
function initialsKey(table: string): string[] {
  const words = table
    .toLowerCase()
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => pluralize.singular(w));
  const initials = words.map((w) => w[0] ?? '').join('');
  return initials ? [`${initials}id`, `${initials}_id`] : [];
}

function sameClass(a: string, b: string): boolean {
  const x = classifyType(a);
  const y = classifyType(b);
  return x === y || x === 'other' || y === 'other';
}

/**
 * The shortest join path from `source` reaching every table of `targets` (breadth first over the
 * key graph, edges walked either way). Targets are reached in the order given, each from the
 * tables already joined; among paths of equal length the first in name order is taken, and the
 * others are named in `assumption`. Null when some target cannot be reached.
 */
export function findJoinPath(tables: KeyedTables, source: string, targets: readonly string[]): JoinPath | null {
  const edges = joinEdges(tables);
  const inScope = [source];
  const joins: Join[] = [];
  const alternatives: string[] = [];
  for (const target of targets) {
    if (inScope.includes(target)) continue;
    const found = shortestPaths(edges, inScope, target);
    if (!found) return null;
    const [best, ...others] = found;
    if (others.length) alternatives.push(`${target} is joined ${describePath(best)}; ${others.length === 1 ? 'another path is' : `${others.length} other paths are`} as short: ${others.slice(0, 3).map(describePath).join('; ')}`);
    for (const step of best) {
      if (inScope.includes(step.table)) continue;
      inScope.push(step.table);
      joins.push({ table: step.table, kind: 'inner', on: step.left.map((l, i) => ({ left: { table: step.from, column: l }, right: { table: step.table, column: step.right[i] } })) });
    }
  }
  const through = joins.map((j) => j.table).filter((t) => !targets.includes(t));
  return { joins, through, assumption: alternatives.length ? alternatives.join('. ') : null };
} // prettier-ignore

interface Step {
  from: string;
  table: string;
  left: string[];
  right: string[];
}

/** Every shortest path from any table of `start` to `target`, as steps, in a stable order. */
function shortestPaths(edges: readonly JoinEdge[], start: readonly string[], target: string): Step[][] | null {
  const stepsFrom = (t: string): Step[] =>
    edges.flatMap((e): Step[] => [
      ...(e.from === t ? [{ from: t, table: e.to, left: e.fromColumns, right: e.toColumns }] : []),
      ...(e.to === t ? [{ from: t, table: e.from, left: e.toColumns, right: e.fromColumns }] : []),
    ]).sort((a, b) => a.table.localeCompare(b.table) || a.left.join().localeCompare(b.left.join())); // prettier-ignore
  let frontier: Step[][] = start.map(() => []);
  let heads = [...start];
  const seen = new Set(start);
  while (frontier.length) {
    const next: Step[][] = [];
    const nextHeads: string[] = [];
    frontier.forEach((path, i) => {
      for (const s of stepsFrom(heads[i])) {
        if (seen.has(s.table)) continue;
        next.push([...path, s]);
        nextHeads.push(s.table);
      }
    });
    const arrived = next.filter((_, i) => nextHeads[i] === target);
    if (arrived.length) return arrived;
    nextHeads.forEach((t) => seen.add(t));
    frontier = next;
    heads = nextHeads;
  }
  return null;
}

function describePath(steps: readonly Step[]): string {
  const through = steps.slice(0, -1).map((s) => s.table);
  const on = steps
    .map((s) => s.left.map((l, i) => `${s.from}.${l} = ${s.table}.${s.right[i]}`).join(' AND '))
    .join(', ');
  return `${through.length ? `through ${through.join(', ')} ` : ''}on ${on}`;
}
