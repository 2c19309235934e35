import { z } from 'zod';
import { QueryPlan } from '@nl2p/query-plan';
import { Answer, Asked, PendingReply, Resolution } from './conversation';
import { CloseExample, SimilarExample } from './glossary';

/**
 * Bump when the envelope's shape changes incompatibly; workers refuse other versions, except the
 * older ones {@link upgradeEnvelope} still reads (so checkpoints written before an upgrade live on).
 *
 * - 2: `reading` (the request's Reading, ARCHITECTURE §7a) and the nodes `link` and
 *   `compile_plan`. A version-1 checkpoint reads as version 2 with no reading; a version-1 worker
 *   refuses version 2 (it knows neither node).
 */
export const ENVELOPE_SCHEMA_VERSION = 2;

/** Every temporary pipeline the product creates starts with this; nothing else is ever deleted. */
export const TMP_PIPELINE_PREFIX = '__nl2pipeline_tmp__';

/** The id a pipeline request carries unless the person named one. */
export const PIPELINE_ID_PLACEHOLDER = 'REPLACE_ME';

export const NODE_NAMES = [
  'init_session',
  'link',
  'route_intent',
  'list_streams',
  'describe_stream',
  'ensure_active_stream',
  'draft_sql',
  'compile_plan',
  'prevalidate',
  'validate',
  'revise_sql',
  'explain',
  'cleanup',
  'confirm',
  'give_up',
  'run_sources',
  'word_answer',
] as const;
export const NodeName = z.enum(NODE_NAMES);
export type NodeName = z.infer<typeof NodeName>;

export const TargetKind = z.enum(['veloflux', 'duckdb', 'postgres']);
export type TargetKind = z.infer<typeof TargetKind>;

export const Intent = z.enum(['list_streams', 'describe_stream', 'nl2sql', 'ask_user']);
export type Intent = z.infer<typeof Intent>;

export const InterruptType = z.enum(['need_stream', 'need_clarification', 'need_confirm']);
export type InterruptType = z.infer<typeof InterruptType>;

/** A stream column as the Manager describes it (struct `fields`, list `element`). */
export interface Column {
  name: string;
  data_type: string;
  fields?: Column[];
  element?: Column;
  /** What the database's `COMMENT ON COLUMN` says (SQL targets). */
  comment?: string;
}
export const Column: z.ZodType<Column> = z.lazy(() =>
  z.object({
    name: z.string(),
    data_type: z.string(),
    fields: z.array(Column).optional(),
    element: Column.optional(),
    comment: z.string().optional(),
  }),
);

/** What a SQL target's catalog says of a table beyond its columns: its comment and declared keys. */
export const TableFacts = z.object({
  comment: z.string().optional(),
  primary_key: z.array(z.string()).optional(),
  foreign_keys: z
    .array(
      z.object({
        columns: z.array(z.string()),
        references: z.object({ table: z.string(), columns: z.array(z.string()) }),
      }),
    )
    .optional(),
});
export type TableFacts = z.infer<typeof TableFacts>;

export const StreamSchema = z.object({
  name: z.string(),
  columns: z.array(Column),
});
export type StreamSchema = z.infer<typeof StreamSchema>;

export const ChatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const UserInput = z.object({
  text: z.string().optional(),
  feedback: z.string().optional(),
  confirm: z.boolean().optional(),
  stream: z.string().optional(),
  /**
   * SQL the person wrote in place of the draft: checked by the same local check and engine
   * validation as any draft, and never repaired by a model (a failure is told back as it is).
   */
  sql: z.string().optional(),
});
export type UserInput = z.infer<typeof UserInput>;

/** One failed validation attempt, kept so `give_up` can say what was tried and why it failed. */
export const AttemptFailure = z.object({
  attempt: z.number().int(),
  sql: z.string(),
  stage: z.enum(['local', 'engine']),
  error: z.string(),
});
export type AttemptFailure = z.infer<typeof AttemptFailure>;

export const Interrupt = z.object({
  type: InterruptType,
  question: z.string(),
  choices: z.array(z.string()).nullable().default(null),
  /** A clarification: what it asked about, so the reply is read against it (null: a free question). */
  asked: Asked.nullable().optional(),
});
export type Interrupt = z.infer<typeof Interrupt>;

/** Where the confirmed pipeline should write; goes verbatim into the pipeline request's sink. */
export const SinkConfig = z.object({
  type: z.string().default('mqtt'),
  props: z.record(z.string(), z.unknown()).default({}),
});
export type SinkConfig = z.infer<typeof SinkConfig>;

/** A read-only sample of a query's result, as SQL targets show it. */
export const Preview = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  truncated: z.boolean(),
});
export type Preview = z.infer<typeof Preview>;

/** One part of a question answered across sources: the SQL its own engine ran, and how it went. */
export const SourcePart = z.object({
  id: z.string(),
  source: z.string(),
  engine: z.string(),
  sql: z.string(),
  /** The source engine's own plan of the part. */
  explain: z.string(),
  rows: z.number().int().nonnegative(),
  /** The part returned more rows than its limit (then nothing is joined from it). */
  capped: z.boolean(),
  elapsed_ms: z.number().nonnegative(),
});
export type SourcePart = z.infer<typeof SourcePart>;

/** How a question over all SQL sources was answered: its parts, and the combine that joined them. */
export const SourcesRun = z.object({
  parts: z.array(SourcePart),
  /** The SQL the in-process DuckDB ran over the parts; null when one source answered alone. */
  combine_sql: z.string().nullable(),
  combine_ms: z.number().nonnegative().nullable(),
  /** Rows of the combined result (the preview holds the first of them); null when none came back. */
  combined_rows: z.number().int().nonnegative().nullable().default(null),
});
export type SourcesRun = z.infer<typeof SourcesRun>;

export const TurnStatus = z.enum(['idle', 'running', 'waiting', 'failed', 'cancelled']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/** What consumed one token of the request (see `accountTokens` in @nl2p/linking). */
/** The kinds of link that can consume a token: a term naming data, or one of the linker's cues. */
export const READING_LINK_KINDS = [
  'table',
  'column',
  'value',
  'term',
  'number',
  'comparison',
  'aggregate',
  'group',
  'time_range',
  'time_group',
  'order',
  'arithmetic',
  'relation',
  'text_match',
  'ratio',
] as const;

export const ReadingToken = z.object({
  token: z.string(),
  /**
   * The kind of link that covered it (a term naming a table, a column, a value, or several of
   * these: `term`), `filler` (no data: `reason` says why), or `unexplained` (nothing read it).
   */
  consumed_by: z.enum([...READING_LINK_KINDS, 'filler', 'unexplained']),
  reason: z.enum(['function_word', 'request_verb', 'filler_noun', 'cue_word', 'punctuation']).nullable(),
});
export type ReadingToken = z.infer<typeof ReadingToken>;

export const ReadingConfidence = z.enum(['high', 'partial', 'none']);
export type ReadingConfidence = z.infer<typeof ReadingConfidence>;

/**
 * What the request means, read once by the `link` node (ARCHITECTURE §7a) from the deterministic
 * linker; later nodes read it instead of linking again.
 */
export const Reading = z.object({
  /** The request read; a reading of another text (the request changed since) is stale. */
  request: z.string(),
  /** The intent the words decide (list, describe, a query); null when they leave it open. */
  intent: z.enum(['list_streams', 'describe_stream', 'nl2sql']).nullable(),
  /** The table the request names outright (`describe orders`), if exactly one. */
  named_table: z.string().nullable(),
  /** Tables the words point at, best first. */
  tables: z.array(z.object({ table: z.string(), score: z.number() })),
  /** The one table that can answer; null when none or several equally. */
  table: z.string().nullable(),
  /** The plan the words make, when linking was conclusive enough to build one. */
  plan: QueryPlan.nullable(),
  /** Columns the words were tied to, best first (`table` + plan-slot label). */
  columns: z.array(z.object({ table: z.string(), label: z.string() })),
  /** Every token of the request with what consumed it. */
  tokens: z.array(ReadingToken),
  /** Content words that name nothing in the data. */
  unknown: z.array(z.string()),
  /** Words that name several things equally. */
  ambiguous: z.array(z.object({ phrase: z.string(), candidates: z.array(z.string()) })),
  /** Everything nothing explains: the unknown and ambiguous words, and the tokens nothing read. */
  unexplained: z.array(z.string()),
  /** How words that read more than one way were read: the turn's assumptions if this plan is used. */
  assumptions: z.array(z.string()),
  /** Why the reading is not conclusive, in words. */
  doubts: z.array(z.string()),
  confidence: ReadingConfidence,
  /**
   * Conclusive (confidence high, a plan, nothing unexplained) and this deployment takes conclusive
   * readings as they are (PLAN_TRUST_LINKS, DRAFT_MODE plan or auto): no model drafts, the
   * validator compiles the plan (`compile_plan`).
   */
  trusted: z.boolean(),
});
export type Reading = z.infer<typeof Reading>;

export const Metrics = z.object({
  llm_calls: z.number().int().default(0),
  llm_tokens_in: z.number().int().default(0),
  llm_tokens_out: z.number().int().default(0),
  llm_latency_ms: z.number().default(0),
  engine_calls: z.number().int().default(0),
  engine_latency_ms: z.number().default(0),
  retries: z.number().int().default(0),
});
export type Metrics = z.infer<typeof Metrics>;

export const Envelope = z.object({
  schema_version: z.literal(ENVELOPE_SCHEMA_VERSION),
  /** Compare-and-set counter: bumped by every checkpoint; a job carrying an older one is stale. */
  version: z.number().int().nonnegative(),
  session_id: z.string().min(1),
  turn_id: z.number().int().nonnegative(),
  /** The node this envelope is addressed to (or the last one that ran, once the turn stopped). */
  node: NodeName.nullable(),
  status: TurnStatus,
  target: TargetKind,
  /**
   * `all`: the session addresses every configured SQL source (`SQL_SOURCES`) at once, tables named
   * `source.table`; a question is split into parts run where their data lives. Null: `target` alone.
   */
  sources: z.literal('all').nullable().default(null),
  /** The tenant whose API key created the session; nobody else sees it. */
  tenant: z.string().default('local'),
  /**
   * The deployment that owns the session (8 hex digits; empty in sessions from older releases).
   * Its temp pipeline ids carry it, so deployments sharing one Manager never sweep each other's.
   */
  deployment: z
    .string()
    .regex(/^([0-9a-f]{8})?$/)
    .default(''),
  created_at: z.string(),
  updated_at: z.string(),

  active_stream: z.string().nullable(),
  stream_schema: StreamSchema.nullable(),
  /** Stream names the engine reported at `init_session` of this turn. */
  streams: z.array(z.string()),
  /**
   * SQL targets only: every table's columns, so a query may join them (veloFlux treats joins as
   * unsupported, and its stream list can be long, so it keeps only the active stream's schema).
   */
  tables: z.record(z.string(), z.array(Column)).default({}),
  /** SQL targets: each table's comment and declared keys, where the catalog has them. */
  table_facts: z.record(z.string(), TableFacts).default({}),
  /** Hash of the cached catalog digest (functions + syntax); the digest itself stays out. */
  digest_hash: z.string().nullable(),

  history: z.object({
    summary: z.string(),
    messages: z.array(ChatMessage),
  }),
  user_input: UserInput,
  /** The natural-language request this flow serves, kept across interrupts. */
  request: z.string().nullable(),
  intent: Intent.nullable(),
  /** What `request` means, read once per request by the `link` node; null before or without one. */
  reading: Reading.nullable().default(null),
  /** A stream the router or the person named for this request. */
  requested_stream: z.string().nullable(),
  /** A pipeline id the person named; the request carries `REPLACE_ME` otherwise. */
  pipeline_id: z.string().nullable(),
  feedback: z.string().nullable(),
  /** A reply to a clarification, read against what was asked by the `link` node. */
  reply: PendingReply.nullable().default(null),
  /** Words the person explained in this session (replies, definitions): every reading applies them. */
  resolutions: z.array(Resolution).default([]),
  /**
   * The tenant's glossary as the turn started (read by the gateway at each turn's start): read like
   * the session's resolutions, which win for a word explained in both.
   */
  glossary: z.array(Resolution).default([]),
  /** A confirmed earlier question of the tenant close to this request (set by the gateway when it starts). */
  similar_example: SimilarExample.nullable().default(null),
  /** The tenant's confirmed questions closest to this request, closest first (set by the gateway when it starts). */
  close_examples: z.array(CloseExample).default([]),
  /** A model's questions about this request and the person's answers (the model sees them; the linker never). */
  answers: z.array(Answer).default([]),
  /**
   * Feedback turns: how many preview rows the plan being changed returned, so a change that
   * empties the result is flagged before anyone confirms it (null: no earlier preview).
   */
  previous_rows: z.number().int().nonnegative().nullable().default(null),

  draft: z.object({
    preview_text: z.string().nullable(),
    sql: z.string().nullable(),
    assumptions: z.array(z.string()),
    questions: z.array(z.string()),
    /** How this draft was written: a query plan compiled by the target, or free SQL. */
    mode: z.enum(['plan', 'sql']).nullable().default(null),
    /** Plan mode: the plan `sql` was compiled from (shown to the person beside the SQL). */
    plan: QueryPlan.nullable().default(null),
    /** What the person must know before confirming: contradicting conditions, an emptied result. */
    warnings: z.array(z.string()).optional(),
  }),
  validation: z.object({
    tmp_pipeline_id: z.string().nullable(),
    error: z.string().nullable(),
    error_stage: z.enum(['local', 'engine']).nullable(),
    ok: z.boolean(),
    attempt: z.number().int().nonnegative(),
    max_attempts: z.number().int().positive(),
    failures: z.array(AttemptFailure),
  }),
  explain: z.object({
    pretty: z.string().nullable(),
    pipeline_request: z.record(z.string(), z.unknown()).nullable(),
    /** SQL targets only: a read-only sample of the result. */
    preview: Preview.nullable().default(null),
    /** Why there is no preview (e.g. the query ran past its time limit). */
    preview_error: z.string().nullable().default(null),
  }),
  sink: SinkConfig,
  /** Sessions over all sources: the parts and the combine of this turn's answer (null otherwise). */
  sources_run: SourcesRun.nullable().default(null),
  interrupt: Interrupt.nullable(),
  /** The answer of a turn that ends without SQL (stream list, schema). */
  answer: z
    .object({
      kind: z.enum(['streams', 'schema', 'message']),
      text: z.string(),
      data: z.unknown().optional(),
    })
    .nullable(),
  error: z
    .object({
      node: z.string().nullable(),
      message: z.string(),
    })
    .nullable(),
  metrics: Metrics,
  /** W3C trace context of the turn's root span, so every node span joins one trace. */
  trace: z.object({
    traceparent: z.string().nullable(),
    tracestate: z.string().nullable(),
  }),
});
export type Envelope = z.infer<typeof Envelope>;

export class EnvelopeValidationError extends Error {
  override readonly name = 'EnvelopeValidationError';
}

/**
 * An older checkpoint as the current version reads it, or the value as it is. Version 1 had no
 * reading and none of the nodes added since, so it is a version 2 with no reading.
 */
export function upgradeEnvelope(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const v = value as Record<string, unknown>;
  if (v.schema_version === 1) return { ...v, schema_version: 2, reading: null };
  return value;
}

/** Parses an unknown value (of this or an older version) into an envelope, with every bad path in the error message. */
export function parseEnvelope(value: unknown): Envelope {
  const parsed = Envelope.safeParse(upgradeEnvelope(value));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new EnvelopeValidationError(`invalid envelope: ${issues}`, { cause: parsed.error });
  }
  return parsed.data;
}

export interface NewSessionOptions {
  sessionId: string;
  target: TargetKind;
  /** `all`: address every SQL source at once (see `Envelope.sources`). */
  sources?: 'all' | null;
  maxAttempts: number;
  sink: SinkConfig;
  activeStream?: string | null;
  tenant?: string;
  deployment?: string;
  now?: Date;
}

export function newSessionEnvelope(opts: NewSessionOptions): Envelope {
  const now = (opts.now ?? new Date()).toISOString();
  return {
    schema_version: ENVELOPE_SCHEMA_VERSION,
    version: 0,
    session_id: opts.sessionId,
    turn_id: 0,
    node: null,
    status: 'idle',
    target: opts.target,
    sources: opts.sources ?? null,
    tenant: opts.tenant ?? 'local',
    deployment: opts.deployment ?? '',
    created_at: now,
    updated_at: now,
    active_stream: opts.activeStream ?? null,
    stream_schema: null,
    streams: [],
    tables: {},
    table_facts: {},
    digest_hash: null,
    history: { summary: '', messages: [] },
    user_input: {},
    request: null,
    intent: null,
    reading: null,
    requested_stream: null,
    pipeline_id: null,
    feedback: null,
    reply: null,
    resolutions: [],
    glossary: [],
    similar_example: null,
    close_examples: [],
    answers: [],
    previous_rows: null,
    draft: emptyDraft(),
    validation: freshValidation(opts.maxAttempts),
    explain: emptyExplain(),
    sink: opts.sink,
    sources_run: null,
    interrupt: null,
    answer: null,
    error: null,
    metrics: emptyMetrics(),
    trace: { traceparent: null, tracestate: null },
  };
}

export function emptyDraft(): Envelope['draft'] {
  return { preview_text: null, sql: null, assumptions: [], questions: [], mode: null, plan: null };
}

/** Nothing explained: what every turn starts from until the engine accepts SQL in that turn. */
export function emptyExplain(): Envelope['explain'] {
  return { pretty: null, pipeline_request: null, preview: null, preview_error: null };
}

export function freshValidation(maxAttempts: number): Envelope['validation'] {
  return {
    tmp_pipeline_id: null,
    error: null,
    error_stage: null,
    ok: false,
    attempt: 0,
    max_attempts: maxAttempts,
    failures: [],
  };
}

export function emptyMetrics(): Metrics {
  return {
    llm_calls: 0,
    llm_tokens_in: 0,
    llm_tokens_out: 0,
    llm_latency_ms: 0,
    engine_calls: 0,
    engine_latency_ms: 0,
    retries: 0,
  };
}
