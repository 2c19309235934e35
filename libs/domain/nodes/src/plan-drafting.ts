import type { DraftMode } from '@nl2p/config';
import type { Envelope, Reading } from '@nl2p/envelope';
import type { TargetProfile } from '@nl2p/engine';
import { joinKeyOf, type LinkSchema } from '@nl2p/linking';
import type { LlmClient } from '@nl2p/llm';
import type { NodeRunContext } from '@nl2p/workflow-runtime';
import { planMessages } from '@nl2p/prompts';
import { checkPlan, QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import type { Grounding } from './grounding';
import { planToSlots, slotPlanSchema, slotsToPlan, slotVocabulary, type SlotPlan } from './plan-slots';
import { currentReading, linkSchemaFor, readRequest } from './reading';

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

/**
 * Plan mode (ARCHITECTURE §7a): from the request's reading (the envelope's, read once by `link`;
 * a revision with the person's feedback reads the request and the feedback anew), let the model
 * choose a plan among enumerated slots (or take the reading's own when it was conclusive), then
 * check the plan against the catalog and compile it with the target's compiler. Candidates are
 * tried in order (the model's, then the reading's) and the first that checks and compiles is kept.
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
  const reading =
    (!revision?.feedback && currentReading(e)) ||
    readRequest(request, schema, { linking: true, mode: o.mode, trustLinks: o.trustLinks });

  // A content word that names nothing the data has (or several things equally) is a question
  // for the person before anything is drafted: guessing it is how wrong answers look right. In
  // `auto` mode a capable model sees those words and decides (ask, go beyond the plan, or map them).
  if (!revision && o.mode !== 'auto') {
    const question = clarificationFor(reading, schema, e.active_stream);
    if (question) return { kind: 'question', question };
  }

  const source = e.active_stream ?? reading.table ?? Object.keys(schema.tables)[0];
  const candidates: { plan: QueryPlanInput; from: 'linker' | 'model' }[] = [];
  const linked = reading.plan && (!e.active_stream || reading.plan.source === e.active_stream) ? reading.plan : null;
  const conclusive = !revision && linked && reading.confidence === 'high';

  if (!(conclusive && o.trustLinks)) {
    const joinable = profile.streaming
      ? []
      : Object.keys(schema.tables).filter((t) => t !== source && joinKeyOf(schema.tables, source, t));
    const vocabulary = slotVocabulary({
      tables: schema.tables,
      table: source,
      joinable,
      preferred: preferredLabels(reading, source),
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
        unknown: reading.unknown,
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
    const compiled = compilePlan(candidate.plan, schema.tables, profile);
    if (!compiled.ok) {
      errors.push(...compiled.errors);
      continue;
    }
    return {
      kind: 'sql',
      sql: compiled.sql,
      plan: compiled.plan,
      // How the linker read words that read more than one way, when its plan is the answer.
      assumptions: [...(candidate.from === 'linker' ? reading.assumptions : []), ...compiled.assumptions],
      from: candidate.from,
    };
  }
  return { kind: 'failed', errors: [...new Set(errors)] };
}

/** A plan checked against the catalog and compiled by the target's compiler, or why it could not be. */
export type CompiledPlan =
  { ok: true; sql: string; plan: QueryPlan; assumptions: string[] } | { ok: false; errors: string[] };

/** Checks `plan` against `tables` and compiles it with the target's compiler (no I/O). */
export function compilePlan(
  plan: QueryPlanInput,
  tables: LinkSchema['tables'],
  profile: Pick<TargetProfile, 'compiler'>,
): CompiledPlan {
  const parsed = QueryPlan.safeParse(plan);
  if (!parsed.success) {
    return { ok: false, errors: [`the plan is malformed: ${parsed.error.issues.map((i) => i.message).join('; ')}`] };
  }
  const checked = checkPlan(parsed.data, tables);
  if (!checked.ok) return { ok: false, errors: checked.errors };
  try {
    const compiled = profile.compiler.compile(checked.plan, tables);
    return { ok: true, sql: compiled.sql, plan: checked.plan, assumptions: compiled.assumptions };
  } catch (err) {
    return { ok: false, errors: [err instanceof Error ? err.message : String(err)] };
  }
}

/** The draft of a plan that compiled: the SQL the local check gets next, one attempt spent. */
export function withPlanDraft(
  e: Envelope,
  compiled: { sql: string; plan: QueryPlan; assumptions: string[] },
): Envelope {
  return {
    ...e,
    draft: {
      preview_text: compiled.sql,
      sql: compiled.sql,
      questions: [],
      assumptions: compiled.assumptions,
      mode: 'plan',
      plan: compiled.plan,
    },
    validation: { ...e.validation, attempt: e.validation.attempt + 1, ok: false, error: null, error_stage: null },
  };
}

/** No plan checked and compiled: a local failure for the repair loop, without an engine call. */
export function withPlanFailure(e: Envelope, errors: string[]): Envelope {
  const attempt = e.validation.attempt + 1;
  const error = errors.join('\n');
  return {
    ...e,
    draft: { ...e.draft, mode: 'plan' },
    validation: {
      ...e.validation,
      attempt,
      ok: false,
      error,
      error_stage: 'local',
      failures: [
        ...e.validation.failures,
        { attempt, sql: e.draft.sql ?? '(no SQL: the plan did not compile)', stage: 'local', error },
      ],
    },
  };
}

/** Column labels the reading tied to the request, in its order: they lead the enums. */
function preferredLabels(reading: Reading, source: string): string[] {
  return reading.columns.map((c) => (c.table === source ? c.label : `${c.table}.${c.label}`));
}

/** The question a reading raises, naming what the data does have; null when there is none. */
export function clarificationFor(
  reading: Pick<Reading, 'tables' | 'unknown' | 'ambiguous' | 'confidence' | 'plan'>,
  schema: LinkSchema,
  active: string | null,
): string | null {
  // Name what the data does have: the active table's columns, else those of the tables the rest
  // of the request pointed at (a person can only rephrase with names they are shown).
  const tables = [...new Set([...(active ? [active] : []), ...reading.tables.slice(0, 2).map((c) => c.table)])];
  const shown = (tables.length ? tables : Object.keys(schema.tables).slice(0, 3))
    .map((t) => `${t} has ${(schema.tables[t] ?? []).map((c) => c.name).join(', ')}`)
    .join('; ');
  if (reading.unknown.length) {
    const words = reading.unknown.map((w) => `'${w}'`).join(', ');
    return `I could not find ${words} in the data (${shown}). Which of these should I use, or what do you mean?`;
  }
  const unclear = reading.ambiguous[0];
  if (unclear) return `'${unclear.phrase}' could mean ${unclear.candidates.join(' or ')}. Which one do you mean?`;
  if (reading.confidence === 'none' && !reading.plan) {
    return `What should I compute, and from which data? (${shown})`;
  }
  return null;
}
