import type { Envelope } from '@nl2p/envelope';
import type { TargetProfile } from '@nl2p/engine';
import type { LinkSchema } from '@nl2p/linking';
import type { QueryPlan } from '@nl2p/query-plan';
import { compilePlan, type PlanDraftOutcome } from '../plan-drafting';
import { editPlan } from './edit';

/**
 * The draft after feedback the edit rules read: the current plan edited, checked and compiled,
 * with the changes said in the assumptions. Null when a clause is beyond the rules, or the edited
 * plan does not compile (the model is asked then, with the plan).
 */
export function editedDraft(
  e: Envelope,
  plan: QueryPlan,
  feedback: string,
  schema: LinkSchema,
  profile: Pick<TargetProfile, 'compiler'>,
): Extract<PlanDraftOutcome, { kind: 'sql' }> | null {
  const edited = editPlan(plan, feedback, schema);
  if (!edited.ok) return null;
  const compiled = compilePlan(edited.plan, schema.tables, profile);
  if (!compiled.ok) return null;
  return {
    kind: 'sql',
    sql: compiled.sql,
    plan: compiled.plan,
    assumptions: [
      ...stillTrue(e.draft.assumptions, compiled.sql),
      ...edited.changes.map((c) => `Changed as you asked: ${c}.`),
      ...compiled.assumptions.filter((a) => !e.draft.assumptions.includes(a)),
    ],
    from: 'edit',
  };
}

/** The earlier draft's assumptions that still hold: one naming a number the new SQL lacks does not. */
function stillTrue(assumptions: readonly string[], sql: string): string[] {
  const numbers = new Set(sql.match(/\d+(?:\.\d+)?/g) ?? []);
  return assumptions.filter((a) => (a.match(/(?<![\w-])\d+(?:\.\d+)?(?![\w-])/g) ?? []).every((n) => numbers.has(n)));
}
