import { QueryPlanError, subqueriesOf, type ColumnRef, type QueryPlan } from '@nl2p/query-plan';

/**
 * Plan constructs a veloFlux pipeline cannot run, refused by name before any SQL is written, each
 * with what the person can ask instead. Each is checked against the recorded engine
 * (`manager-api/recorded/exchanges.jsonl`): `probe_union_create` (a set operation: "Expected a
 * simple SELECT query"), `probe_in_subquery_create` (a sub-query in WHERE: "Unsupported
 * expression: InSubquery"), `probe_subquery_from_create` (a sub-query in FROM is accepted but read
 * as `SELECT *` of the inner stream, so ranked rows would silently be all rows), the function
 * catalog (no rank() or row_number(); hour(), month(), day_of_week() with Sunday = 1, and no year,
 * quarter or week), and `probe_limit_create` (LIMIT is ignored, so OFFSET has nothing to count).
 */
export function refuseBeyondStream(plan: QueryPlan): void {
  if (plan.set_operations.length) {
    const op = plan.set_operations[0].op.replace('_', ' ').toUpperCase();
    throw new QueryPlanError(`veloFlux runs one simple SELECT per pipeline (its parser refuses ${op}), so the rows of two queries cannot be combined; run each query as its own pipeline`);
  }
  const conditions = [plan.where, ...(plan.window?.kind === 'state' ? [plan.window.open, plan.window.emit] : [])];
  const sub = conditions.flatMap((c) => subqueriesOf(c))[0];
  if (sub) {
    throw new QueryPlanError(`veloFlux cannot filter a stream by another query (IN, EXISTS or a comparison with a sub-query on ${sub.plan.source} is refused when the pipeline is built); compare with fixed values instead`);
  }
  if (plan.extreme_per_group) {
    const x = plan.extreme_per_group;
    throw new QueryPlanError(`veloFlux has no rank(), so the rows holding each group's ${x.extreme} cannot be picked out; ask for the ${x.extreme} itself per group instead`);
  }
  if (plan.offset > 0) throw new QueryPlanError('veloFlux has no OFFSET (a stream has no first rows to skip, and LIMIT is ignored); drop the offset');
  const dated = datePartOf(plan);
  if (dated) {
    throw new QueryPlanError(`veloFlux date parts are not compiled: the engine has no year, quarter or week function and numbers weekdays from Sunday = 1, so the ${dated.part} of ${dated.column} cannot be taken as on the SQL targets; group with a window or compare the time column instead`);
  }
} // prettier-ignore

/** The first column reference anywhere in the plan that takes a date part. */
function datePartOf(plan: QueryPlan): ColumnRef | null {
  const seen: ColumnRef[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.column === 'string' && typeof o.part === 'string') seen.push(o as unknown as ColumnRef);
      Object.values(o).forEach(visit);
    }
  };
  visit(plan);
  return seen[0] ?? null;
}
