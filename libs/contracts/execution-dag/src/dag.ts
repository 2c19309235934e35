import { z } from 'zod';
import {
  ColumnRef,
  Condition,
  HavingCondition,
  Join,
  OrderKey,
  Projection,
  QueryPlan,
  TimeBucket,
} from '@nl2p/query-plan';

/**
 * The logical plan of a question whose tables live in several sources (seed 001's
 * `ExecutionDAG`): one scan per source, each a {@link QueryPlan} over that source's own tables
 * with the filters that can run there and only the columns needed later; then the combine (joins
 * on keys between the scans' results) and the steps that only make sense on the joined rows —
 * post-filter, post-aggregate, post-project, post-sort, post-limit. The combine and the post
 * steps run in an in-process DuckDB over the scans' registered results. Bump
 * {@link EXECUTION_DAG_VERSION} on any incompatible change.
 */
export const EXECUTION_DAG_VERSION = 1;

/** A scan's output column and where it comes from (a source-qualified table's column). */
export const ScanOutput = z.object({
  /** The column name in the scan's result (its table in the combine). */
  name: z.string().min(1),
  /** `source.table`. */
  table: z.string().min(1),
  column: z.string().min(1),
  data_type: z.string(),
});
export type ScanOutput = z.infer<typeof ScanOutput>;

const base = { id: z.string().regex(/^[a-z][a-z0-9_]*$/), inputs: z.array(z.string()) };

/**
 * The node kinds. References in combine and post steps name a scan by its id as `table` and a
 * scan output by its `name` as `column`: they are written over the scans' results.
 */
export const DagNode = z.discriminatedUnion('kind', [
  z.object({
    ...base,
    kind: z.literal('scan'),
    /** The configured source the scan runs on. */
    source: z.string().min(1),
    /** Over the source's own (unqualified) table names; compiled by the source's engine. */
    plan: QueryPlan,
    outputs: z.array(ScanOutput),
  }),
  /** The first input is the driving scan; each join adds one more scan on its keys. */
  z.object({ ...base, kind: z.literal('combine'), joins: z.array(Join).min(1) }),
  z.object({ ...base, kind: z.literal('post_filter'), condition: Condition }),
  z.object({
    ...base,
    kind: z.literal('post_aggregate'),
    group_by: z.array(ColumnRef),
    time_bucket: TimeBucket.nullable(),
    having: z.array(HavingCondition),
  }),
  z.object({ ...base, kind: z.literal('post_project'), select: z.array(Projection), distinct: z.boolean() }),
  z.object({
    ...base,
    kind: z.literal('post_sort'),
    order_by: z.array(z.object({ key: OrderKey, direction: z.enum(['asc', 'desc']) })),
  }),
  z.object({
    ...base,
    kind: z.literal('post_limit'),
    limit: z.number().int().positive().nullable(),
    offset: z.number().int().nonnegative(),
  }),
]);
export type DagNode = z.infer<typeof DagNode>;
export type DagNodeKind = DagNode['kind'];
export type ScanNode = Extract<DagNode, { kind: 'scan' }>;

export const ExecutionDag = z.object({
  version: z.literal(EXECUTION_DAG_VERSION),
  nodes: z.array(DagNode).min(1),
  /** Node ids by layer: a node's inputs are all in earlier layers; ids sorted within a layer. */
  layers: z.array(z.array(z.string())),
  /** The node whose rows are the answer. */
  output: z.string(),
});
export type ExecutionDag = z.infer<typeof ExecutionDag>;

/** A DAG that is malformed (a cycle, an unknown input) or a plan the decomposer cannot split. */
export class ExecutionDagError extends Error {
  override readonly name = 'ExecutionDagError';
}

/**
 * Layers by repeated removal of nodes whose inputs are all placed (Kahn), ids sorted within a
 * layer, so the same nodes always give the same layers whatever order they are listed in.
 */
export function layersOf(nodes: readonly { id: string; inputs: readonly string[] }[]): string[][] {
  const ids = new Set(nodes.map((n) => n.id));
  if (ids.size !== nodes.length) throw new ExecutionDagError('two DAG nodes share an id');
  for (const n of nodes) {
    const unknown = n.inputs.find((i) => !ids.has(i));
    if (unknown) throw new ExecutionDagError(`node ${n.id} reads ${unknown}, which is not in the DAG`);
  }
  const placed = new Set<string>();
  const layers: string[][] = [];
  while (placed.size < nodes.length) {
    const layer = nodes
      .filter((n) => !placed.has(n.id) && n.inputs.every((i) => placed.has(i)))
      .map((n) => n.id)
      .sort();
    if (layer.length === 0) throw new ExecutionDagError('the DAG has a cycle');
    layer.forEach((id) => placed.add(id));
    layers.push(layer);
  }
  return layers;
}

/** Parses a DAG and checks its layers are the ones its edges give. */
export function parseExecutionDag(value: unknown): ExecutionDag {
  const parsed = ExecutionDag.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ExecutionDagError(`invalid execution DAG: ${issues}`);
  }
  const expected = layersOf(parsed.data.nodes);
  if (JSON.stringify(expected) !== JSON.stringify(parsed.data.layers))
    throw new ExecutionDagError('the DAG layers do not follow from its edges');
  if (!parsed.data.nodes.some((n) => n.id === parsed.data.output))
    throw new ExecutionDagError(`the DAG output ${parsed.data.output} is not one of its nodes`);
  return parsed.data;
}

export function scansOf(dag: ExecutionDag): ScanNode[] {
  return dag.nodes.filter((n): n is ScanNode => n.kind === 'scan');
}
