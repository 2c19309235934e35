import type { Column } from '@nl2p/envelope';
import type { QueryPlan } from '@nl2p/query-plan';
import { ExecutionDagError, scansOf, type DagNode, type ExecutionDag } from './dag';
import { emptyPlan } from './decompose';

/**
 * The combine and the post steps as one plan over the scans' results (each scan a table named by
 * its id, with its outputs as columns), for the combine engine's compiler to write as SQL. The
 * steps map one to one onto the plan's clauses: joins, WHERE, GROUP BY / HAVING, SELECT, ORDER
 * BY, LIMIT.
 */
export function combinePlan(dag: ExecutionDag): QueryPlan {
  const combine = dag.nodes.find((n): n is Extract<DagNode, { kind: 'combine' }> => n.kind === 'combine');
  if (!combine) throw new ExecutionDagError('a DAG with one scan has nothing to combine');
  const plan: QueryPlan = { ...emptyPlan(combine.inputs[0] ?? ''), joins: combine.joins };
  for (const node of dag.nodes) {
    switch (node.kind) {
      case 'post_filter':
        plan.where = node.condition;
        break;
      case 'post_aggregate':
        Object.assign(plan, { group_by: node.group_by, time_bucket: node.time_bucket, having: node.having });
        break;
      case 'post_project':
        Object.assign(plan, { select: node.select, distinct: node.distinct });
        break;
      case 'post_sort':
        plan.order_by = node.order_by;
        break;
      case 'post_limit':
        Object.assign(plan, { limit: node.limit, offset: node.offset });
        break;
      case 'scan':
      case 'combine':
        break;
    }
  }
  return plan;
}

/** The scans' results as tables of the combine: each scan id with its outputs' names and types. */
export function combineTables(dag: ExecutionDag): Record<string, Column[]> {
  return Object.fromEntries(
    scansOf(dag).map((s) => [s.id, s.outputs.map((o) => ({ name: o.name, data_type: o.data_type }))]),
  );
}
