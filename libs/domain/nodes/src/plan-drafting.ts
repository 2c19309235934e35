import type { DraftMode } from '@nl2p/config';
import type { Envelope, Interrupt, Reading } from '@nl2p/envelope';
import type { TargetProfile } from '@nl2p/engine';
import { joinKeyOf, linkRequest, type LinkSchema } from '@nl2p/linking';
import type { LlmClient } from '@nl2p/llm';
import type { NodeRunContext } from '@nl2p/workflow-runtime';
import { planMessages } from '@nl2p/prompts';
import { checkPlan, QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import type { Grounding } from './grounding';
import { planToSlots, slotPlanSchema, slotsToPlan, slotVocabulary, type SlotPlan } from './plan-slots';
import { currentReading, linkSchemaFor, readRequest } from './reading';
import { clarificationFor } from './conversation/ask';
import { readingResolutions } from './conversation/resolutions';
import { readWithChooser } from './conversation/choose';
import { checkEdit } from './plan-edits/check-edit';
import { editedDraft } from './plan-edits/edited-draft';
import { groundModelPlan, requestEvidence, wordsOfTurn, type GroundedDraft } from './draft-evidence';

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
  /** MODEL_CHOOSES: a word fitting several columns equally is the model's to choose, not a question. */
  modelChooses?: boolean;
}

/** What one plan-mode draft produced. */
export type PlanDraftOutcome =
  | { kind: 'sql'; sql: string; plan: QueryPlan; assumptions: string[]; from: 'linker' | 'model' | 'edit' }
  | { kind: 'question'; interrupt: Interrupt }
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
  // Feedback edits the current plan: a recognised edit applies to it by rule, with no model; the
  // model gets the rest, with the plan, and its result is checked against the edit. The request
  // is never read again with the feedback's words joined to it.
  const editing = revision?.feedback && e.draft.plan ? { plan: e.draft.plan, feedback: revision.feedback } : null;
  if (editing) {
    const edited = editedDraft(e, editing.plan, editing.feedback, schema, profile);
    if (edited) return edited;
  }
  const request = e.request ?? '';
  let reading =
    currentReading(e) ||
    readRequest(request, schema, { linking: true, mode: o.mode, trustLinks: o.trustLinks }, readingResolutions(e));

  // A content word that names nothing the data has (or several things equally) is a question
  // for the person before anything is drafted: guessing it is how wrong answers look right. In
  // `auto` mode a capable model sees those words and decides (ask, go beyond the plan, or map them).
  if (!revision && o.mode !== 'auto') {
    const chosen = o.modelChooses ? await choosingReading(e, ctx, o, schema, reading) : reading;
    const question = clarificationFor(chosen, schema, e.active_stream);
    if (question) return { kind: 'question', interrupt: question };
    reading = chosen;
  }

  const source = e.active_stream ?? reading.table ?? Object.keys(schema.tables)[0];
  const candidates: { plan: QueryPlanInput; from: 'linker' | 'model'; assumptions?: string[] }[] = [];
  // The request's own plan answers the request, not the feedback on it: no candidate then.
  const linked =
    reading.plan && !editing && (!e.active_stream || reading.plan.source === e.active_stream) ? reading.plan : null;
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
      // A small model copes with the flat form only; a server model is offered the nested slots.
      nested: !o.compactPrompts,
    });
    const shownPlan = editing?.plan ?? linked;
    const hint = shownPlan ? planToSlots(QueryPlan.parse(shownPlan), profile.streaming) : null;
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
        answers: e.answers,
        revision,
        examples: e.close_examples,
        compact: o.compactPrompts,
        reading,
      }),
      schema: slotPlanSchema(vocabulary),
      schemaName: 'query_plan',
    });
    const slots = value as SlotPlan;
    if (slots.beyond_plan) return { kind: 'beyond' };
    const asked = slots.question?.trim();
    if (asked && !revision) return { kind: 'question', interrupt: openQuestion(asked) };
    const drafted = slotsToPlan(slots, schema.tables, profile.streaming);
    // A repair (no feedback) may keep what the draft it repairs kept, judged against the turn's
    // words when it was made, and what the check that sent it back quotes of the person's words
    // (`kept temperature > 30 beside the new 35, which the feedback replaces`): the feedback
    // itself is gone from the envelope by then.
    const said =
      revision?.feedback ?? (revision ? [revision.previous, revision.error].filter(Boolean).join(' . ') : null);
    const grounded = groundDraftedPlan(drafted, request, schema, reading, e, said);
    // A repair cannot ask: it takes the removal, said as assumptions, instead.
    if (grounded.kind === 'ask' && !revision) return { kind: 'question', interrupt: openQuestion(grounded.question) };
    candidates.push({ plan: grounded.draft, from: 'model', assumptions: grounded.assumptions });
  }
  if (linked) candidates.push({ plan: linked, from: 'linker' });

  const errors: string[] = [];
  for (const candidate of candidates) {
    const compiled = compilePlan(candidate.plan, schema.tables, profile);
    if (!compiled.ok) {
      errors.push(...compiled.errors);
      continue;
    }
    const unfaithful = editing && checkEdit(editing.plan, compiled.plan, editing.feedback);
    if (unfaithful) {
      errors.push(unfaithful);
      continue;
    }
    return {
      kind: 'sql',
      sql: compiled.sql,
      plan: compiled.plan,
      // How the linker read words that read more than one way, when its plan is the answer.
      // What was left out of the model's plan for want of evidence in the request (issue 23).
      assumptions: [
        ...(candidate.from === 'linker' ? reading.assumptions : []),
        ...(candidate.assumptions ?? []),
        ...compiled.assumptions,
      ],
      from: candidate.from,
    };
  }
  return { kind: 'failed', errors: [...new Set(errors)] };
}

/**
 * The model's plan judged against what the request says (issue 23): conditions and a LIMIT no
 * word supports are left out (said as assumptions), or the turn asks. A plan that does not parse
 * is kept as it is: the compiler's check reports it to the repair loop.
 */
function groundDraftedPlan(
  drafted: QueryPlanInput,
  request: string,
  schema: LinkSchema,
  reading: Reading,
  e: Envelope,
  alsoSaid: string | null,
): GroundedDraft<QueryPlanInput> {
  const parsed = QueryPlan.safeParse(drafted);
  if (!parsed.success) return { kind: 'kept', draft: drafted, assumptions: [] };
  // Answers and feedback are the person's words too: a condition they ask for is evidenced (the
  // feedback a revision answers, `35 would be better`, is the revision's, not yet the envelope's).
  const links = linkRequest(wordsOfTurn({ ...e, request, feedback: alsoSaid ?? e.feedback }), schema);
  const evidence = requestEvidence(links, schema, reading, readingResolutions(e));
  return groundModelPlan(parsed.data, evidence, links, schema);
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

/** A question a model wrote in its own words: the reply goes back to the model beside it. */
export function openQuestion(question: string): Interrupt {
  return { type: 'need_clarification', question, choices: null, asked: { kind: 'open', question } };
}

/**
 * The reading after the model chose among the candidates of each close call (MODEL_CHOOSES), as
 * this turn's resolutions shown in its assumptions; the first reading when nothing was chosen.
 */
async function choosingReading(
  e: Envelope,
  ctx: NodeRunContext,
  o: PlanDraftingOptions,
  schema: LinkSchema,
  first: Reading,
): Promise<Reading> {
  const options = { linking: true, mode: o.mode, trustLinks: o.trustLinks };
  const { reading } = await readWithChooser(first, {
    llm: o.llm,
    signal: ctx.signal,
    schema,
    active: e.active_stream,
    options,
    resolutions: readingResolutions(e),
  });
  return reading;
}
