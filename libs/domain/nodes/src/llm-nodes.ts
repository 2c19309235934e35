import { z } from 'zod';
import {
  LlmError,
  MAX_STRUCTURED_TEXT,
  reviseGrammarFor,
  reviseSchemaFor,
  routerSchemaFor,
  sqlGrammarFor,
  type LlmClient,
} from '@nl2p/llm';
import { matchStream } from '@nl2p/graph';
import type { DraftMode } from '@nl2p/config';
import type { Envelope } from '@nl2p/envelope';
import type { NodeHandlers, NodeRunContext } from '@nl2p/workflow-runtime';
import { QUESTION_PREFIX, draftMessages, reviseMessages, routerMessages } from '@nl2p/prompts';
import { extractSql } from '@nl2p/sql-guard';
import { CoalescedDeltas } from './coalesced-deltas';
import type { Grounding } from './grounding';
import { sqlVocabularyFor } from './vocabulary';
import {
  draftFromPlan,
  withPlanDraft,
  withPlanFailure,
  openQuestion,
  type PlanDraftingOptions,
  type PlanDraftOutcome,
} from './plan-drafting';
import { currentReading, linkSchemaFor } from './reading';
import { linkRequest } from '@nl2p/linking';
import { readingResolutions } from './conversation/resolutions';
import { groundModelSql, requestEvidence, wordsOfTurn, type GroundedDraft } from './draft-evidence';

/**
 * The router's output schema for one turn: `stream` enumerated from the engine's streams, so a
 * constrained decoder (local grammar, `json_schema` servers) can only name a real one. Answers
 * from unconstrained servers are normalised before the check instead of failing the call: a
 * stream is matched like a person's choice (exact, else unique case-insensitive) and anything
 * else becomes null, a missing question is null and a long one is cut. The JSON Schema is the
 * strict enumerated one (preprocessing does not show in it).
 */
export function routerSchema(streams: readonly string[]) {
  // Built once per list of streams: a zod schema costs far more to build (and to compile on its
  // first parse) than to use, and every turn of a deployment routes over the same few lists.
  const key = JSON.stringify(streams);
  let schema = routerSchemas.get(key);
  if (!schema) {
    schema = buildRouterSchema(streams);
    if (routerSchemas.size >= ROUTER_SCHEMAS_KEPT) routerSchemas.delete(routerSchemas.keys().next().value as string);
    routerSchemas.set(key, schema);
  }
  return schema;
}

/** Distinct lists of streams whose router schema is kept (the oldest built is dropped first). */
const ROUTER_SCHEMAS_KEPT = 64;
const routerSchemas = new Map<string, ReturnType<typeof buildRouterSchema>>();

function buildRouterSchema(given: readonly string[]) {
  // Its own copy: the schema outlives the envelope whose list it was built from.
  const streams = Object.freeze([...given]);
  // The default intents are RouterOutput's; the envelope's intent type checks they still agree.
  const strict = routerSchemaFor(streams);
  return strict.extend({
    stream: z.preprocess(
      (v) => (typeof v === 'string' ? (matchStream([...streams], v) ?? null) : (v ?? null)),
      strict.shape.stream,
    ),
    question: z.preprocess(
      (v) => (typeof v === 'string' ? v.slice(0, MAX_STRUCTURED_TEXT) : (v ?? null)),
      strict.shape.question,
    ),
  });
}

/** Nodes run by the `router-llm` service. */
export function routerNodes({
  llm,
  compactPrompts = false,
  linking = false,
}: {
  llm: LlmClient;
  compactPrompts?: boolean;
  /**
   * Take the intent the request's reading decided (LINKING; the `link` node read it), without an
   * LLM call; the model is asked only when the reading leaves the intent open.
   */
  linking?: boolean;
}): NodeHandlers {
  return {
    async route_intent(e, ctx) {
      const reading = linking ? currentReading(e) : null;
      if (reading?.intent) {
        const stream = reading.intent === 'nl2sql' ? null : reading.named_table;
        return { ...e, intent: reading.intent, requested_stream: stream ?? e.requested_stream };
      }
      const { value } = await llm.json({
        role: 'router',
        signal: ctx.signal,
        messages: routerMessages(e, { compact: compactPrompts }),
        schema: routerSchema(e.streams),
        schemaName: 'route_intent',
      });
      // The model may only point at streams the engine has; anything else became null.
      const stream = value.stream;
      if (value.intent === 'ask_user') {
        const question = value.question?.trim() || 'Could you say more precisely what you want to compute?';
        return { ...e, intent: 'ask_user', interrupt: openQuestion(question) };
      }
      return { ...e, intent: value.intent, requested_stream: stream ?? e.requested_stream };
    },
  };
}

/** Nodes run by the `sql-drafter` service: the streamed first draft and the JSON revision. */
export function drafterNodes({
  llm,
  grounding,
  compactPrompts = false,
  planning,
}: {
  llm: LlmClient;
  grounding: Grounding;
  /** See `PromptOptions` in @nl2p/prompts; {@link compactPrompts} decides it from the config. */
  compactPrompts?: boolean;
  /** Plan and auto modes (DRAFT_MODE); absent: free SQL only. */
  planning?: Omit<PlanDraftingOptions, 'llm' | 'grounding' | 'compactPrompts'>;
}): NodeHandlers {
  const plans = planning && planning.mode !== 'sql' ? { ...planning, llm, grounding, compactPrompts } : null;
  /**
   * The model's SQL judged against what the person said this turn (issue 23): conditions
   * and a LIMIT no word supports are cut out and said as assumptions, or the turn asks. Without
   * `planning` there is no target profile to read the request with: the SQL is kept as written.
   */
  async function groundSql(e: Envelope, sql: string): Promise<GroundedDraft<string>> {
    if (!planning) return { kind: 'kept', draft: sql, assumptions: [] };
    const schema = await linkSchemaFor(e, grounding, planning.profileOf(e));
    const links = linkRequest(wordsOfTurn(e), schema);
    const evidence = requestEvidence(links, schema, currentReading(e), readingResolutions(e));
    const columns = new Set(Object.values(schema.tables).flatMap((cs) => cs.map((c) => c.name.toLowerCase())));
    return groundModelSql(sql, evidence, links, columns);
  }
  return {
    async draft_sql(e, ctx) {
      if (plans) {
        const outcome = await draftFromPlan(e, ctx, plans, null);
        const next = await fromPlanOutcome(e, ctx, outcome, plans.mode);
        if (next) return next;
      }
      const catalog = await grounding.catalog(e.target, e.digest_hash);
      const deltas = new CoalescedDeltas((delta) => ctx.emit({ type: 'draft_delta', node: 'draft_sql', delta }));
      const { text } = await llm.text({
        role: 'preview',
        signal: ctx.signal,
        messages: draftMessages(e, catalog, { compact: compactPrompts }),
        // SELECT … naming only catalog identifiers, or one question line (local provider).
        grammar: sqlGrammarFor(sqlVocabularyFor(e, catalog, { activeStreamOnly: compactPrompts }), {
          questionPrefix: QUESTION_PREFIX,
        }),
        onDelta: deltas.push,
      });
      await deltas.flush();
      const attempt = e.validation.attempt + 1;
      const question = parseQuestion(text);
      if (question) {
        return {
          ...e,
          draft: { ...e.draft, preview_text: text, sql: null, questions: [question] },
          validation: { ...e.validation, attempt },
          interrupt: openQuestion(question),
        };
      }
      // Text that starts as a SELECT but cannot be cut out as one (a small model's garbled answer
      // under the grammar) goes to the repair loop as it is: the local check reports what is wrong
      // and revise_sql gets a turn, where retrying the same deterministic call would not help.
      const sql = extractSql(text) || (/^\s*select\s/i.test(text) ? text.trim() : '');
      if (!sql) {
        throw new LlmError(
          `the model answered with neither SQL nor a question: ${JSON.stringify(text.slice(0, 120))}`,
          true,
        );
      }
      const grounded = await groundSql(e, sql);
      if (grounded.kind === 'ask') {
        return {
          ...e,
          draft: { ...e.draft, preview_text: text, sql: null, questions: [grounded.question] },
          validation: { ...e.validation, attempt },
          interrupt: openQuestion(grounded.question),
        };
      }
      return {
        ...e,
        draft: {
          preview_text: text,
          sql: grounded.draft,
          questions: [],
          assumptions: grounded.assumptions,
          mode: 'sql',
          plan: null,
        },
        validation: { ...e.validation, attempt, ok: false, error: null, error_stage: null },
      };
    },

    async revise_sql(e, ctx) {
      // Repairs and feedback revise in the mode the draft was written in.
      if (plans && e.draft.mode !== 'sql') {
        const outcome = await draftFromPlan(e, ctx, plans, {
          previous: e.draft.sql,
          error: e.validation.error,
          feedback: e.feedback,
        });
        const next = await fromPlanOutcome({ ...e, feedback: null }, ctx, outcome, plans.mode);
        if (next) return next;
      }
      const catalog = await grounding.catalog(e.target, e.digest_hash);
      const vocabulary = sqlVocabularyFor(e, catalog, { activeStreamOnly: compactPrompts });
      const { value, text } = await llm.json({
        role: 'reasoning',
        signal: ctx.signal,
        messages: reviseMessages(e, catalog, { compact: compactPrompts }),
        // Names are checked by prevalidate, which feeds the repair loop; see ReviseSchemaOptions.
        schema: reviseSchemaFor(vocabulary, { checkIdentifiers: false }),
        schemaName: 'revise_sql',
        // The same JSON with the SQL inside constrained to the vocabulary (local provider).
        grammar: reviseGrammarFor(vocabulary),
      });
      const attempt = e.validation.attempt + 1;
      const sql = value.sql ? extractSql(value.sql) : '';
      if (!sql) {
        const question = value.questions.join(' ') || 'I could not fix the query. What should it compute?';
        return {
          ...e,
          draft: { ...e.draft, preview_text: text, questions: value.questions },
          validation: { ...e.validation, attempt },
          interrupt: openQuestion(question),
        };
      }
      // A repair cannot ask: an unevidenced condition is left out and said, as in a first draft.
      const grounded = await groundSql(e, sql);
      return {
        ...e,
        feedback: null,
        draft: {
          preview_text: text,
          sql: grounded.draft,
          questions: value.questions,
          assumptions: [...value.assumptions, ...grounded.assumptions],
          mode: 'sql',
          plan: null,
        },
        validation: { ...e.validation, attempt, ok: false, error: null, error_stage: null },
      };
    },
  };
}

/**
 * The envelope a plan-mode outcome leads to, or null when free SQL must be drafted instead
 * (`auto` mode: the request is beyond the plan language, or no plan could be made of it).
 */
async function fromPlanOutcome(
  e: Envelope,
  ctx: NodeRunContext,
  outcome: PlanDraftOutcome,
  mode: DraftMode,
): Promise<Envelope | null> {
  switch (outcome.kind) {
    case 'sql':
      // The compiled SQL is the draft the person watches arrive (one delta: it is not generated).
      await ctx.emit({ type: 'draft_delta', node: e.node ?? 'draft_sql', delta: outcome.sql });
      return withPlanDraft(e, outcome);
    case 'question':
      return {
        ...e,
        draft: { ...e.draft, sql: null, questions: [outcome.interrupt.question], mode: 'plan' },
        interrupt: outcome.interrupt,
      };
    case 'beyond':
      return null;
    case 'failed':
      if (mode === 'auto') return null;
      return withPlanFailure(e, outcome.errors);
  }
}

/** `QUESTION: …` on the first non-empty line (fences and quotes tolerated). */
export function parseQuestion(text: string): string | null {
  const first = text
    .replace(/```[a-z]*\n?/gi, '')
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!first?.toUpperCase().startsWith(QUESTION_PREFIX)) return null;
  return first.slice(QUESTION_PREFIX.length).trim() || null;
}
