import type { DraftMode } from '@nl2p/config';
import type { Envelope } from '@nl2p/envelope';
import type { TargetProfile } from '@nl2p/engine';
import { joinKeyOf, linkRequest, proposePlan, type LinkSchema, type PlanProposal } from '@nl2p/linking';
import type { LlmClient } from '@nl2p/llm';
import type { NodeRunContext } from '@nl2p/workflow-runtime';
import { planMessages } from '@nl2p/prompts';
import { checkPlan, QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import type { Grounding } from './grounding';
import { planToSlots, slotPlanSchema, slotsToPlan, slotVocabulary, type SlotPlan } from './plan-slots';

export interface PlanDraftingOptions {
  llm: LlmClient;
  grounding: Grounding;
  profileOf: (e: Envelope) => TargetProfile;
  mode: DraftMode;
  /**
   * Take the linker's plan without asking the model when linking was conclusive (every slot had
   * one candidate). What a small model would do there is copy it, or spoil it.
   */
  trustLinks: boolean;
  compactPrompts: boolean;
}

/** What one plan-mode draft produced. */
export type PlanDraftOutcome =
  | { kind: 'sql'; sql: string; plan: QueryPlan; assumptions: string[]; from: 'linker' | 'model' }
  | { kind: 'question'; question: string }
  | { kind: 'beyond' }
  | { kind: 'failed'; errors: string[] };

/** The linking view of what the session was grounded in. */
export async function linkSchemaFor(e: Envelope, grounding: Grounding, profile: TargetProfile): Promise<LinkSchema> {
  const catalog = await grounding.catalog(e.target, e.digest_hash);
  const tables = { ...e.tables };
  if (e.stream_schema) tables[e.stream_schema.name] = e.stream_schema.columns;
  return { tables, values: catalog.values ?? {}, streaming: profile.streaming };
}

/**
 * Plan mode (ARCHITECTURE §7a): link the request's words to the catalog, let the model choose a
 * plan among enumerated slots (or take the linker's own when it was conclusive), then check the
 * plan against the catalog and compile it with the target's compiler. Candidates are tried in
 * order (the model's, then the linker's) and the first that checks and compiles is kept.
 */
export async function draftFromPlan(
  e: Envelope,
  ctx: NodeRunContext,
  o: PlanDraftingOptions,
  revision: { previous: string | null; error: string | null; feedback: string | null } | null,
): Promise<PlanDraftOutcome> {
  const profile = o.profileOf(e);
  const schema = await linkSchemaFor(e, o.grounding, profile);
  const request = [e.request ?? '', revision?.feedback ?? ''].filter(Boolean).join('\n');
  const proposal = proposePlan(linkRequest(request, schema), schema);

  // A content word that names nothing the data has (or several things equally) is a question
  // for the person before anything is drafted: guessing it is how wrong answers look right. In
  // `auto` mode a capable model sees those words and decides (ask, go beyond the plan, or map them).
  if (!revision && o.mode !== 'auto') {
    const question = clarificationFor(proposal, schema, e.active_stream);
    if (question) return { kind: 'question', question };
  }

  const source = e.active_stream ?? proposal.table ?? Object.keys(schema.tables)[0];
  const candidates: { plan: QueryPlanInput; from: 'linker' | 'model' }[] = [];
  const linked = proposal.plan && (!e.active_stream || proposal.plan.source === e.active_stream) ? proposal.plan : null;
  const conclusive = !revision && linked && proposal.confidence === 'high';

  if (!(conclusive && o.trustLinks)) {
    const joinable = profile.streaming
      ? []
      : Object.keys(schema.tables).filter((t) => t !== source && joinKeyOf(schema.tables, source, t));
    const vocabulary = slotVocabulary({
      tables: schema.tables,
      table: source,
      joinable,
      preferred: preferredLabels(proposal, source),
      streaming: profile.streaming,
      allowBeyond: o.mode === 'auto',
    });
    const hint = linked ? planToSlots(QueryPlan.parse(linked), profile.streaming) : null;
    const { value } = await o.llm.json({
      role: revision ? 'reasoning' : 'preview',
      signal: ctx.signal,
      messages: planMessages({
        request,
        vocabulary,
        tables: schema.tables,
        values: schema.values ?? {},
        hint,
        unknown: proposal.unknown,
        revision,
        compact: o.compactPrompts,
      }),
      schema: slotPlanSchema(vocabulary),
      schemaName: 'query_plan',
    });
    const slots = value as SlotPlan;
    if (slots.beyond_plan) return { kind: 'beyond' };
    if (slots.question?.trim() && !revision) return { kind: 'question', question: slots.question.trim() };
    candidates.push({ plan: slotsToPlan(slots, schema.tables, profile.streaming), from: 'model' });
  }
  if (linked) candidates.push({ plan: linked, from: 'linker' });

  const errors: string[] = [];
  for (const candidate of candidates) {
    const parsed = QueryPlan.safeParse(candidate.plan);
    if (!parsed.success) {
      errors.push(`the plan is malformed: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      continue;
    }
    const checked = checkPlan(parsed.data, schema.tables);
    if (!checked.ok) {
      errors.push(...checked.errors);
      continue;
    }
    try {
      const compiled = profile.compiler.compile(checked.plan, schema.tables);
      return {
        kind: 'sql',
        sql: compiled.sql,
        plan: checked.plan,
        // How the linker read words that read more than one way, when its plan is the answer.
        assumptions: [...(candidate.from === 'linker' ? proposal.readings : []), ...compiled.assumptions],
        from: candidate.from,
      };
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { kind: 'failed', errors: [...new Set(errors)] };
}

/** Column labels the linker tied to the request, in its order: they lead the enums. */
function preferredLabels(proposal: PlanProposal, source: string): string[] {
  return [...proposal.slots.columns, ...proposal.slots.groupBy].map((c) =>
    c.table === source ? c.label : `${c.table}.${c.label}`,
  );
}

/** The table a request names outright (`describe orders`), singular or plural, any case. */
export function mentionedTable(request: string, schema: LinkSchema): string | null {
  const words = new Set(
    request
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter(Boolean),
  );
  const found = Object.keys(schema.tables).filter((t) => {
    const name = t.toLowerCase();
    return words.has(name) || words.has(name.replace(/s$/, '')) || words.has(`${name}s`);
  });
  return found.length === 1 ? found[0] : null;
}

/** The question linking raises, naming what the data does have; null when there is none. */
export function clarificationFor(proposal: PlanProposal, schema: LinkSchema, active: string | null): string | null {
  // Name what the data does have: the active table's columns, else those of the tables the rest
  // of the request pointed at (a person can only rephrase with names they are shown).
  const tables = [
    ...new Set([...(active ? [active] : []), ...proposal.tableCandidates.slice(0, 2).map((c) => c.table)]),
  ];
  const shown = (tables.length ? tables : Object.keys(schema.tables).slice(0, 3))
    .map((t) => `${t} has ${(schema.tables[t] ?? []).map((c) => c.name).join(', ')}`)
    .join('; ');
  if (proposal.unknown.length) {
    const words = proposal.unknown.map((w) => `'${w}'`).join(', ');
    return `I could not find ${words} in the data (${shown}). Which of these should I use, or what do you mean?`;
  }
  const unclear = proposal.ambiguous[0];
  if (unclear) return `'${unclear.phrase}' could mean ${unclear.candidates.join(' or ')}. Which one do you mean?`;
  if (proposal.confidence === 'none' && !proposal.plan) {
    return `What should I compute, and from which data? (${shown})`;
  }
  return null;
}
