import type { Column } from '@nl2p/envelope';
import { plansIn, type ColumnRef, type Condition, type Join, type Projection, type QueryPlan } from '@nl2p/query-plan';
import {
  EXECUTION_DAG_VERSION,
  ExecutionDagError,
  layersOf,
  type DagNode,
  type ExecutionDag,
  type ScanOutput,
} from './dag';
import {
  andOf,
  conjuncts,
  hasSubplan,
  mapAggregate,
  mapBucket,
  mapCondition,
  mapHaving,
  mapOrderKey,
  mapProjection,
  refsOf,
  type RefMap,
} from './plan-refs';
import { localName, sourceOf } from './source-names';

/** One future scan: tables of one source joined among themselves, in the plan's order. */
interface ScanGroup {
  id: string;
  source: string;
  tables: string[];
  joins: Join[];
  /** The right side of a cross-source LEFT JOIN: its rows may be missing, so no filter is pushed to it. */
  nullable: boolean;
}

/**
 * Splits a checked plan over source-qualified tables (`crm.customers`, every column reference's
 * table filled in, as `checkPlan` leaves it) into an {@link ExecutionDag}. Pure and
 * deterministic: the same plan always gives the same DAG.
 *
 * Tables of one source joined to each other stay together in one scan (that source joins them);
 * each conjunct of the WHERE that reads only one scan's tables runs in that scan; only the
 * columns read after the scans are returned. Everything else — joins between sources, conditions
 * across sources, grouping, HAVING, the projection, order and limit — runs after the combine.
 * A plan that reads one source becomes a single scan holding the whole plan.
 */
export function decomposePlan(plan: QueryPlan, tables: Readonly<Record<string, readonly Column[]>>): ExecutionDag {
  refuseUnsplittable(plan);
  const { groups, crossJoins } = groupBySource(plan);
  if (groups.length === 1) {
    const only = groups[0];
    const scanPlan = unqualified(plan, only.source);
    const outputs = scanPlan.select.length === 0 ? allColumns(only.tables, tables) : [];
    return finish([{ id: only.id, kind: 'scan', inputs: [], source: only.source, plan: scanPlan, outputs }], only.id);
  }
  const scanOf = (table: string): ScanGroup => groups.find((g) => g.tables.includes(table)) as ScanGroup;
  const pushed = new Map<string, Condition[]>(groups.map((g) => [g.id, []]));
  const post: Condition[] = [];
  for (const c of conjuncts(plan.where)) {
    const touched = [...new Set(refsOf((f) => mapCondition(c, f)).map((r) => scanOf(r.table ?? plan.source)))];
    const only = touched.length === 1 ? touched[0] : undefined;
    if (only && !only.nullable) pushed.get(only.id)?.push(c);
    else post.push(c);
  }
  const needed = neededRefs(plan, post, crossJoins, tables);
  const outputs = nameOutputs(needed, tables);
  const toScanOutput: RefMap = (r) => {
    const table = r.table ?? plan.source;
    const out = outputs.find((o) => o.table === table && o.column === r.column);
    if (!out) throw new ExecutionDagError(`no scan returns ${table}.${r.column}`);
    return { ...r, table: scanOf(table).id, column: out.name };
  };
  const scans = groups.map((g) => scanNode(g, pushed.get(g.id) ?? [], outputs));
  return finish([...scans, ...postNodes(plan, post, crossJoins, scanOf, toScanOutput, scans)], null);
}

function refuseUnsplittable(plan: QueryPlan): void {
  const tables = [plan.source, ...plan.joins.map((j) => j.table)];
  const sources = new Set(tables.map(sourceOf));
  const why = (what: string) =>
    new ExecutionDagError(`${what} across sources is not split yet; ask about one source at a time`);
  const nested = plansIn(plan).flatMap((p) => [p.source, ...p.joins.map((j) => j.table)]);
  if (sources.size === 1) {
    if (nested.some((t) => !sources.has(sourceOf(t)))) throw why('a nested plan or set operand reading another source');
    return;
  }
  if (plan.set_operations.length) throw why('a set operation (union, intersect, except)');
  if (plan.extreme_per_group) throw why("the row holding its group's extreme");
  if (plan.window) throw why('a streaming window');
  if (plan.where && hasSubplan(plan.where)) throw why('a nested condition (in, exists, a compared sub-plan)');
  const struct = refsOfPlan(plan).find((r) => r.path?.length);
  if (struct) throw why(`a struct field (${struct.column}->${struct.path?.join('->')})`);
}

/** Union of same-source tables joined to each other; a join reaching over two sources is kept for the combine. */
function groupBySource(plan: QueryPlan): { groups: ScanGroup[]; crossJoins: Join[] } {
  const groups: ScanGroup[] = [];
  const crossJoins: Join[] = [];
  const counts = new Map<string, number>();
  const open = (table: string, nullable: boolean): void => {
    const source = sourceOf(table);
    const n = (counts.get(source) ?? 0) + 1;
    counts.set(source, n);
    groups.push({ id: scanId(source, n), source, tables: [table], joins: [], nullable });
  };
  open(plan.source, false);
  for (const join of plan.joins) {
    const lefts = [...new Set(join.on.map((p) => p.left.table ?? plan.source))];
    const home = groups.find((g) => lefts.every((t) => g.tables.includes(t)));
    if (home && home.source === sourceOf(join.table)) {
      home.tables.push(join.table);
      home.joins.push(join);
    } else {
      crossJoins.push(join);
      open(join.table, join.kind === 'left');
    }
  }
  return { groups, crossJoins };
}

function scanId(source: string, n: number): string {
  const safe = source.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return n === 1 ? `scan_${safe}` : `scan_${safe}_${n}`;
}

/** Columns read after the scans: everything the plan reads, except in conditions pushed into a scan. */
function neededRefs(
  plan: QueryPlan,
  post: Condition[],
  crossJoins: Join[],
  tables: Readonly<Record<string, readonly Column[]>>,
): { table: string; column: string }[] {
  const all = [plan.source, ...plan.joins.map((j) => j.table)];
  const refs: ColumnRef[] =
    plan.select.length === 0
      ? all.flatMap((t) => (tables[t] ?? []).map((c) => ({ table: t, column: c.name })))
      : refsOf((f) => plan.select.map((p) => mapProjection(p, f)));
  refs.push(
    ...refsOf((f) => {
      post.forEach((c) => mapCondition(c, f));
      crossJoins.forEach((j) => j.on.forEach((p) => [f(p.left), f({ ...p.right, table: p.right.table ?? j.table })]));
      plan.group_by.forEach(f);
      if (plan.time_bucket) mapBucket(plan.time_bucket, f);
      plan.having.forEach((h) => mapHaving(h, f));
      plan.order_by.forEach((o) => mapOrderKey(o.key, f));
    }),
  );
  const seen = new Map<string, { table: string; column: string }>();
  for (const r of refs) {
    const table = r.table ?? plan.source;
    seen.set(`${table}\u0000${r.column}`, { table, column: r.column });
  }
  return [...seen.values()];
}

/** A scan output keeps its column's name when no other needed column has it, else `table_column`. */
function nameOutputs(
  needed: { table: string; column: string }[],
  tables: Readonly<Record<string, readonly Column[]>>,
): ScanOutput[] {
  const taken = new Set<string>();
  return needed.map(({ table, column }) => {
    const clash = needed.some((o) => o.column === column && o.table !== table);
    let name = clash ? `${localName(table)}_${column}` : column;
    for (let i = 2; taken.has(name); i++) name = `${clash ? `${localName(table)}_${column}` : column}_${i}`;
    taken.add(name);
    const data_type = tables[table]?.find((c) => c.name === column)?.data_type ?? 'unknown';
    return { name, table, column, data_type };
  });
}

function allColumns(names: string[], tables: Readonly<Record<string, readonly Column[]>>): ScanOutput[] {
  return nameOutputs(
    names.flatMap((t) => (tables[t] ?? []).map((c) => ({ table: t, column: c.name }))),
    tables,
  );
}

function scanNode(group: ScanGroup, pushed: Condition[], outputs: ScanOutput[]): DagNode {
  const mine = outputs.filter((o) => group.tables.includes(o.table));
  const toLocal: RefMap = (r) => ({ ...r, table: localName(r.table ?? group.tables[0] ?? '') });
  const plan: QueryPlan = {
    ...emptyPlan(localName(group.tables[0] ?? '')),
    joins: group.joins.map((j) => ({
      ...j,
      table: localName(j.table),
      on: j.on.map((p) => ({ left: toLocal(p.left), right: toLocal({ ...p.right, table: p.right.table ?? j.table }) })),
    })),
    select: mine.map((o) => ({
      kind: 'value' as const,
      expr: { kind: 'column' as const, ref: { table: localName(o.table), column: o.column } },
      alias: o.name,
    })),
    where: andOf(pushed.map((c) => mapCondition(c, toLocal))),
  };
  return { id: group.id, kind: 'scan', inputs: [], source: group.source, plan, outputs: mine };
}

/** The combine and the steps after it, each present only when the plan asks for it. */
function postNodes(
  plan: QueryPlan,
  post: Condition[],
  crossJoins: Join[],
  scanOf: (table: string) => { id: string },
  f: RefMap,
  scans: DagNode[],
): DagNode[] {
  const nodes: DagNode[] = [];
  let last = 'combine';
  const joins: Join[] = crossJoins.map((j) => ({
    table: scanOf(j.table).id,
    kind: j.kind,
    on: j.on.map((p) => ({ left: f(p.left), right: f({ ...p.right, table: p.right.table ?? j.table }) })),
  }));
  nodes.push({ id: 'combine', kind: 'combine', inputs: scans.map((s) => s.id), joins });
  const add = (node: DagNode): void => {
    nodes.push(node);
    last = node.id;
  };
  const filter = andOf(post);
  if (filter) add({ id: 'post_filter', kind: 'post_filter', inputs: [last], condition: mapCondition(filter, f) });
  const aggregates = plan.select.some((p) => p.kind === 'aggregate' || p.kind === 'measure') || plan.having.length > 0;
  if (plan.group_by.length || plan.time_bucket || aggregates) {
    add({
      id: 'post_aggregate',
      kind: 'post_aggregate',
      inputs: [last],
      group_by: plan.group_by.map(f),
      time_bucket: plan.time_bucket ? mapBucket(plan.time_bucket, f) : null,
      having: plan.having.map((h) => mapHaving(h, f)),
    });
  }
  add({
    id: 'post_project',
    kind: 'post_project',
    inputs: [last],
    select: plan.select.map((p) => withReadableAlias(mapProjection(p, f), p)),
    distinct: plan.distinct,
  });
  if (plan.order_by.length) {
    const order_by = plan.order_by.map((o) => ({ key: mapOrderKey(o.key, f), direction: o.direction }));
    add({ id: 'post_sort', kind: 'post_sort', inputs: [last], order_by });
  }
  if (plan.limit !== null || plan.offset > 0)
    add({ id: 'post_limit', kind: 'post_limit', inputs: [last], limit: plan.limit, offset: plan.offset });
  return nodes;
}

/** A plain column shown after the combine keeps its own name, not the scan output's `table_column`. */
function withReadableAlias(mapped: Projection, original: Projection): Projection {
  if (mapped.kind !== 'value' || mapped.alias || original.kind !== 'value' || original.expr.kind !== 'column') return mapped;
  const ref = original.expr.ref;
  return ref.part || ref.path?.length ? mapped : { ...mapped, alias: ref.column };
} // prettier-ignore

function finish(nodes: DagNode[], output: string | null): ExecutionDag {
  const layers = layersOf(nodes);
  return { version: EXECUTION_DAG_VERSION, nodes, layers, output: output ?? nodes[nodes.length - 1].id };
}

/**
 * The plan as its one source reads it: every `source` and `table` naming `source.x` becomes `x`,
 * sub-plans and set operands included (they name tables the same way).
 */
function unqualified(plan: QueryPlan, source: string): QueryPlan {
  const prefix = `${source}.`;
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string' && (key === 'source' || key === 'table') && value.startsWith(prefix))
      return value.slice(prefix.length);
    if (Array.isArray(value)) return value.map((v) => walk(v, null));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(plan, null) as QueryPlan;
}

function refsOfPlan(plan: QueryPlan): ColumnRef[] {
  return refsOf((f) => {
    plan.select.forEach((p) => mapProjection(p, f));
    if (plan.where && !hasSubplan(plan.where)) mapCondition(plan.where, f);
    plan.group_by.forEach(f);
    plan.having.forEach((h) => mapAggregate(h.aggregate, f));
    plan.order_by.forEach((o) => mapOrderKey(o.key, f));
  });
}

export function emptyPlan(source: string): QueryPlan {
  return {
    version: 2,
    source,
    joins: [],
    select: [],
    distinct: false,
    where: null,
    group_by: [],
    time_bucket: null,
    window: null,
    having: [],
    order_by: [],
    limit: null,
    offset: 0,
    extreme_per_group: null,
    set_operations: [],
  };
}
