import { conditionOf, type WordMeaning } from '@nl2p/envelope';
import { checkPlan, closestNames, parseQueryPlan, type CheckTables, type QueryPlanInput } from '@nl2p/query-plan';

/**
 * What is wrong with a meaning in this schema (empty when nothing): the meaning is put in a
 * one-table plan and checked by the plan's own check, so a definition is refused at once, in the
 * words a turn would use (`no column 'temp' in sensor_readings; did you mean temperature?`),
 * rather than at the first turn that reads the term.
 */
export function meaningProblems(means: WordMeaning, tables: CheckTables): string[] {
  if (!tables[means.table]) {
    const near = closestNames(means.table, Object.keys(tables));
    return [`no table '${means.table}'${near.length ? `; did you mean ${near.join(' or ')}?` : ''}`];
  }
  const check = checkPlan(parseQueryPlan(probePlan(means)), tables);
  return check.ok ? [] : check.errors;
}

/** A plan that reads exactly what the meaning names. */
function probePlan(m: WordMeaning): QueryPlanInput {
  const count = { kind: 'aggregate' as const, aggregate: { fn: 'count' as const, arg: null } };
  switch (m.kind) {
    case 'table':
      return { source: m.table, select: [count] };
    case 'column':
      return { source: m.table, select: [{ kind: 'value', expr: { kind: 'column', ref: { column: m.column } } }] };
    case 'value':
      return {
        source: m.table,
        select: [count],
        where: {
          kind: 'compare',
          left: { kind: 'column', ref: { column: m.column } },
          op: '=',
          value: { kind: 'string', value: m.value },
        },
      };
    case 'expr':
      return { source: m.table, select: [{ kind: 'value', expr: m.expr }] };
    case 'condition':
      return { source: m.table, select: [count], where: conditionOf(m) };
  }
}
