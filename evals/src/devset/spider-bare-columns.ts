import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * SQLite lets a grouped or aggregated SELECT name a column that is neither grouped nor aggregated
 * (a "bare" column). Its value comes from the row holding the extreme when the query has exactly
 * one min() or max(), else from some row of the group (one value when the column depends on the
 * grouped key, as Spider's queries mostly use it). DuckDB refuses such a query; rewritten here on
 * DuckDB's own syntax tree (`json_serialize_sql`), bare columns become `arg_max(col, x)` /
 * `arg_min(col, x)` or `any_value(col)`, which say the same.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const AGGREGATES = new Set(['count', 'count_star', 'sum', 'avg', 'min', 'max', 'any_value', 'arg_max', 'arg_min']);
const isAggregate = (e: Json) => e.class === 'FUNCTION' && AGGREGATES.has(String(e.function_name).toLowerCase());
const columnKey = (e: Json) => (e.column_names as string[]).map((n) => n.toLowerCase());

/** Every expression of `e` outside aggregates and sub-queries, with a way to replace it. */
function visitBare(e: unknown, replace: (col: Json) => Json | null): unknown {
  if (Array.isArray(e)) return e.map((x) => visitBare(x, replace));
  if (!isObject(e) || isAggregate(e) || e.class === 'SUBQUERY') return e;
  if (e.class === 'COLUMN_REF') return replace(e) ?? e;
  return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, visitBare(v, replace)]));
}

function findAggregates(e: unknown, out: Json[]): Json[] {
  if (Array.isArray(e)) e.forEach((x) => findAggregates(x, out));
  else if (isObject(e) && e.class !== 'SUBQUERY') {
    if (isAggregate(e)) out.push(e);
    else Object.values(e).forEach((v) => findAggregates(v, out));
  }
  return out;
}

const fn = (name: string, children: Json[]): Json => ({
  class: 'FUNCTION',
  type: 'FUNCTION',
  alias: '',
  query_location: 0,
  function_name: name,
  schema: '',
  children,
  filter: null,
  order_bys: { type: 'ORDER_MODIFIER', orders: [] },
  distinct: false,
  is_operator: false,
  export_state: false,
  catalog: '',
});

/** One SELECT node with its bare columns wrapped; `changed` says whether any was. */
function rewriteSelect(node: Json, changed: { value: boolean }): Json {
  const groups = ((node.group_expressions as Json[]) ?? []).filter((g) => g.class === 'COLUMN_REF').map(columnKey);
  const orders = ((node.modifiers as Json[]) ?? []).filter((m) => m.type === 'ORDER_MODIFIER');
  const aggregates = findAggregates([node.select_list, node.having, orders], []);
  if (!groups.length && !(node.group_expressions as Json[] | undefined)?.length && !aggregates.length) return node;
  const aliases = new Set(
    ((node.select_list as Json[]) ?? []).map((e) => String(e.alias).toLowerCase()).filter(Boolean),
  );
  const extremes = aggregates.filter((a) => ['min', 'max'].includes(String(a.function_name).toLowerCase()));
  const extreme = extremes.length === 1 && aggregates.length === 1 ? extremes[0] : undefined;
  const grouped = (key: string[]) =>
    groups.some(
      (g) => g.join('.') === key.join('.') || (Math.min(g.length, key.length) === 1 && g.at(-1) === key.at(-1)),
    );
  const replace = (col: Json): Json | null => {
    const key = columnKey(col);
    if (grouped(key) || (key.length === 1 && aliases.has(key[0] ?? ''))) return null;
    changed.value = true;
    const plain = { ...col, alias: '' };
    const wrapped = extreme
      ? fn(String(extreme.function_name).toLowerCase() === 'max' ? 'arg_max' : 'arg_min', [
          plain,
          (extreme.children as Json[])[0],
        ])
      : fn('any_value', [plain]);
    return { ...wrapped, alias: col.alias };
  };
  return {
    ...node,
    select_list: visitBare(node.select_list, replace),
    having: visitBare(node.having, replace),
    modifiers: ((node.modifiers as Json[]) ?? []).map((m) => (m.type === 'ORDER_MODIFIER' ? visitBare(m, replace) : m)),
  };
}

/** The tree with every SELECT node (sub-queries and set operands too) rewritten. */
export function wrapBareColumns(tree: unknown, changed: { value: boolean }): unknown {
  if (Array.isArray(tree)) return tree.map((x) => wrapBareColumns(x, changed));
  if (!isObject(tree)) return tree;
  const inner = Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, wrapBareColumns(v, changed)]));
  return inner.type === 'SELECT_NODE' ? rewriteSelect(inner, changed) : inner;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The query with SQLite's bare columns made explicit, through DuckDB's parser; the query as it
 * was when it has none or does not parse (it then fails, and is counted, when run).
 */
export async function explicitBareColumns(sql: string, connection: DuckDBConnection): Promise<string> {
  try {
    const serialized = await connection.runAndReadAll(`SELECT json_serialize_sql(${literal(sql)})`);
    const json = serialized.getRowsJS()[0]?.[0];
    if (typeof json !== 'string') return sql;
    const tree = JSON.parse(json) as Json;
    if (tree.error) return sql;
    const changed = { value: false };
    const rewritten = wrapBareColumns(tree, changed);
    if (!changed.value) return sql;
    const back = await connection.runAndReadAll(`SELECT json_deserialize_sql(${literal(JSON.stringify(rewritten))})`);
    const text = back.getRowsJS()[0]?.[0];
    return typeof text === 'string' ? text : sql;
  } catch {
    return sql;
  }
}
