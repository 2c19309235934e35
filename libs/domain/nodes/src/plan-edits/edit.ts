import { linkRequest, type LinkSchema, type Links } from '@nl2p/linking';
import type { QueryPlan } from '@nl2p/query-plan';
import { EDIT_RULES } from './rules';

/** One clause of the person's feedback, with the linker's reading of its words. */
export interface Clause {
  text: string;
  links: Links;
}

/** What the edit rules know: the data's tables, columns and values. */
export type EditContext = LinkSchema;

/** A plan changed by one clause, and the change said in words (the turn's assumptions show it). */
export interface Edited {
  plan: QueryPlan;
  change: string;
}

/**
 * One kind of edit (`replace-threshold`, `add-grouping`, …): reads a clause of feedback as that
 * edit of the current plan, or answers null when the clause is not that kind of edit (or does not
 * fit this plan), so the next rule may try.
 */
export interface EditRule {
  name: string;
  apply(plan: QueryPlan, clause: Clause, ctx: EditContext): Edited | null;
}

/** The feedback applied to the plan by the rules, or the clauses no rule could read. */
export type PlanEdit = { ok: true; plan: QueryPlan; changes: string[] } | { ok: false; unread: string[] };

// `and` starts a new edit only before an edit's own first word (`use 35 and also per device`); an
// `and` inside one (`only dev-01 and dev-03`) stays.
const CLAUSE_BREAK =
  /\s*(?:;|,|\.\s|\bthen\b|\band\s+(?=(?:also|sort|order|drop|remove|hide|only|use|make|change|set|show|exclude|limit|group|per|by|newest|oldest|latest)\b))\s*/i;

/**
 * Feedback applied to the current typed plan, clause by clause, each by the first rule that reads
 * it. All or nothing: a clause no rule reads sends the whole feedback to the model, with the plan.
 */
export function editPlan(plan: QueryPlan, feedback: string, ctx: EditContext): PlanEdit {
  const clauses = feedback
    .split(CLAUSE_BREAK)
    .map((c) => c.trim().replace(/[.!]+$/, ''))
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
  let current = plan;
  const changes: string[] = [];
  const unread: string[] = [];
  for (const text of clauses) {
    const clause: Clause = { text, links: linkRequest(text, ctx) };
    const edited = EDIT_RULES.map((r) => r.apply(current, clause, ctx)).find((x): x is Edited => x !== null);
    if (!edited) {
      unread.push(text);
      continue;
    }
    current = edited.plan;
    changes.push(edited.change);
  }
  if (unread.length || !changes.length) return { ok: false, unread: unread.length ? unread : [feedback] };
  return { ok: true, plan: current, changes };
}
