import { performance } from 'node:perf_hooks';
import { targetProfile } from '@nl2p/engine';
import { linkRequest, proposePlan, type LinkSchema, type PlanProposal } from '@nl2p/linking';
import { QueryPlan, checkPlan } from '@nl2p/query-plan';
// clarificationFor is not exported by @nl2p/nodes, whose index also loads the NestJS worker
// module; plan-drafting.ts itself is plain functions.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { clarificationFor } from '../../../libs/domain/nodes/src/plan-drafting';

/**
 * What the embedded default does with one request before any model is asked:
 * - `clarification`: linking raised a question for the person;
 * - `sql`: linking was conclusive and its plan checked and compiled: the product answers with it
 *   without a model call (`PLAN_TRUST_LINKS`);
 * - `model`: inconclusive; the product would hand the request to the LLM.
 */
export type Outcome = 'clarification' | 'sql' | 'model';

export interface Reading {
  outcome: Outcome;
  question: string | null;
  /** The compiled SQL, when `sql`. */
  sql: string | null;
  /** Why the linker's plan was not taken, when `model`. */
  why: string | null;
  proposal: PlanProposal;
  /** Time of `linkRequest` + `proposePlan`, in ms. */
  linkMs: number;
}

const duckdb = targetProfile('duckdb');

/**
 * The product's no-model path for one request over a DuckDB schema, as `draftFromPlan`
 * (libs/domain/nodes/src/plan-drafting.ts) runs it in plan mode with trusted links, on a first
 * turn with no active table. The one place to change when that path changes.
 */
export function readOnce(request: string, schema: LinkSchema): Reading {
  const started = performance.now();
  const proposal = proposePlan(linkRequest(request, schema), schema);
  const linkMs = performance.now() - started;
  const base = { proposal, linkMs, question: null, sql: null, why: null };

  const question = clarificationFor(proposal, schema, null);
  if (question) return { ...base, outcome: 'clarification', question };
  if (!proposal.plan) return { ...base, outcome: 'model', why: 'no plan' };
  if (proposal.confidence !== 'high') return { ...base, outcome: 'model', why: `confidence ${proposal.confidence}` };

  const parsed = QueryPlan.safeParse(proposal.plan);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => i.message).join('; ');
    return { ...base, outcome: 'model', why: `plan malformed: ${issues}` };
  }
  const checked = checkPlan(parsed.data, schema.tables);
  if (!checked.ok) return { ...base, outcome: 'model', why: `plan check: ${checked.errors.join('; ')}` };
  try {
    const compiled = duckdb.compiler.compile(checked.plan, schema.tables);
    return { ...base, outcome: 'sql', sql: compiled.sql };
  } catch (err) {
    return { ...base, outcome: 'model', why: `compile: ${err instanceof Error ? err.message : String(err)}` };
  }
}
