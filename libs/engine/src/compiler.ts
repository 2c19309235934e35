import type { Column } from '@nl2p/envelope';
import type { QueryPlan } from '@nl2p/query-plan';

/** What a plan is compiled against: the columns of every table or stream it may name. */
export type PlanTables = Readonly<Record<string, readonly Column[]>>;

/** SQL compiled from a plan, with what the person must know about how it was written. */
export interface CompiledQuery {
  sql: string;
  /**
   * Sentences for the turn's assumptions: where the dialect computes something other than the
   * plain reading of the plan (e.g. veloFlux applies WHERE beside a window after aggregating).
   */
  assumptions: string[];
}

/**
 * One target's compiler (ARCHITECTURE §7a). Given a plan that passed the catalog check, it
 * returns SQL the engine accepts, or throws `QueryPlanError` with a sentence saying which part
 * of the plan the target cannot express (no join on veloFlux, no hopping window, …).
 */
export interface QueryCompiler {
  compile(plan: QueryPlan, tables: PlanTables): CompiledQuery;
}
