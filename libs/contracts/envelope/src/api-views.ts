import { z } from 'zod';
import { QueryPlan } from '@nl2p/query-plan';
import { Resolution } from './conversation';
import { GLOSSARY_VIEW_SCHEMAS, SimilarExample } from './glossary';
import {
  Column,
  Envelope,
  Interrupt,
  Metrics,
  NodeName,
  Preview,
  SourcesRun,
  TargetKind,
  TurnStatus,
} from './envelope';

// The gateway's response bodies as schemas: the OpenAPI document's components are generated from
// these (so the document describes what the code returns), and the projections in session-view.ts
// are typed by them (so the code cannot return anything else).

const SESSION_ID_EXAMPLE = '4f0c2b9e8a1d4c3b9e7f6a5d4c3b2a19';

export const SessionViewSchema = z
  .object({
    session_id: z.string(),
    status: TurnStatus,
    turn_id: z.number().int(),
    target: TargetKind,
    sources: z.literal('all').nullable().describe('`all`: the session addresses every SQL source at once'),
    node: NodeName.nullable(),
    active_stream: z.string().nullable(),
    interrupt: Interrupt.nullable(),
    request: z.string().nullable(),
    sql: z.string().nullable(),
    draft_mode: z
      .enum(['plan', 'sql'])
      .nullable()
      .describe('`plan`: compiled from `query_plan`; `sql`: written freely'),
    query_plan: QueryPlan.nullable(),
    assumptions: z.array(z.string()),
    warnings: z
      .array(z.string())
      .describe('Read before confirming: contradicting conditions, or a change that emptied the result'),
    resolutions: z
      .array(Resolution)
      .describe('Words explained in this session (replies, definitions), applied to every request read'),
    similar_to: SimilarExample.nullable().describe(
      'A confirmed earlier question of your tenant close to this request: "like your earlier question \'…\'"',
    ),
    questions: z.array(z.string()),
    explain: z.string().nullable().describe("The engine's plan, as text"),
    pipeline_request: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('veloFlux: the `POST /pipelines` body to apply'),
    preview: Preview.nullable().describe('SQL targets: a read-only sample of the result'),
    preview_error: z.string().nullable(),
    sources_run: SourcesRun.nullable().describe(
      "Sessions over all sources: each part's source, engine, SQL, engine plan, rows and time, and the combine SQL",
    ),
    answer: Envelope.shape.answer,
    error: Envelope.shape.error,
    attempts: z.object({
      attempt: z.number().int(),
      max_attempts: z.number().int(),
      failures: Envelope.shape.validation.shape.failures,
    }),
    metrics: Metrics,
    updated_at: z.string(),
  })
  .meta({
    id: 'SessionView',
    description: 'What a client sees of a session: enough to act on, nothing internal.',
    examples: [
      {
        session_id: SESSION_ID_EXAMPLE,
        status: 'waiting',
        turn_id: 1,
        target: 'duckdb',
        node: 'confirm',
        active_stream: 'orders',
        interrupt: { type: 'need_confirm', question: 'Run this query?', choices: null },
        request: 'number of orders per status',
        sql: 'SELECT status, count(*) AS orders FROM orders GROUP BY status',
        draft_mode: 'plan',
        query_plan: null,
        assumptions: [],
        warnings: [],
        resolutions: [],
        similar_to: null,
        questions: [],
        explain: 'HASH_GROUP_BY …',
        pipeline_request: null,
        preview: { columns: ['status', 'orders'], rows: [['shipped', 41]], truncated: false },
        preview_error: null,
        answer: null,
        error: null,
        attempts: { attempt: 1, max_attempts: 3, failures: [] },
        metrics: {
          llm_calls: 0,
          llm_tokens_in: 0,
          llm_tokens_out: 0,
          llm_latency_ms: 0,
          engine_calls: 3,
          engine_latency_ms: 12,
          retries: 0,
        },
        updated_at: '2026-11-25T10:00:00.000Z',
      },
    ],
  });
export type SessionView = z.output<typeof SessionViewSchema>;

export const SessionSummarySchema = z
  .object({
    session_id: z.string(),
    status: TurnStatus,
    turn_id: z.number().int(),
    target: TargetKind,
    active_stream: z.string().nullable(),
    request: z.string().nullable(),
    interrupt_type: Interrupt.shape.type.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'SessionSummary', description: 'One line of `GET /v1/sessions`: enough to pick a session up again.' });
export type SessionSummary = z.output<typeof SessionSummarySchema>;

export const SessionPageSchema = z
  .object({ sessions: z.array(SessionSummarySchema), next_cursor: z.string().nullable() })
  .meta({ id: 'SessionPage', description: 'A page of sessions, newest first; pass `next_cursor` back as `cursor`.' });
export type SessionPage = z.output<typeof SessionPageSchema>;

const SourceNoun = z.enum(['stream', 'table']);

export const TargetListSchema = z
  .object({
    default: TargetKind,
    targets: z.array(
      z.object({
        kind: TargetKind,
        label: z.string(),
        source_noun: SourceNoun,
        streaming: z.boolean(),
        reachable: z.boolean().describe('Whether the engine answered a catalog read when listed'),
        problem: z
          .string()
          .nullable()
          .describe('Why the engine cannot be reached, and the setting to fix (null when reachable)'),
      }),
    ),
    sources: z
      .array(z.object({ name: z.string(), engine: TargetKind, label: z.string() }))
      .optional()
      .describe('The named SQL sources (`SQL_SOURCES`) a question may read together; their tables are `source.table`'),
  })
  .meta({
    id: 'TargetList',
    description: 'The targets configured on this deployment, the default first.',
    examples: [
      {
        default: 'duckdb',
        targets: [
          { kind: 'duckdb', label: 'DuckDB', source_noun: 'table', streaming: false, reachable: true, problem: null },
        ],
      },
    ],
  });
export type TargetList = z.output<typeof TargetListSchema>;

export const StreamInfoSchema = z
  .object({ name: z.string(), columns: z.array(Column) })
  .meta({ id: 'StreamInfo', description: 'A stream (a table on SQL targets) and its columns.' });
export type StreamInfo = z.output<typeof StreamInfoSchema>;

export const StreamDescriptionSchema = StreamInfoSchema.extend({ target: TargetKind }).meta({
  id: 'StreamDescription',
  description: "One stream's (or table's) columns, with the target read.",
});

export const StreamListSchema = z
  .object({ target: TargetKind, source_noun: SourceNoun, streams: z.array(StreamInfoSchema) })
  .meta({ id: 'StreamList', description: "A target's streams (tables on SQL targets) with their columns." });
export type StreamList = z.output<typeof StreamListSchema>;

const CallRecords = {
  llm: z.array(
    z.object({
      provider: z.string().optional(),
      model: z.string(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      latency_ms: z.number(),
      finish_reason: z.string().nullable(),
      retries: z.number(),
    }),
  ),
  engine: z.array(
    z.object({
      method: z.string(),
      route: z.string(),
      status: z.number().nullable(),
      latency_ms: z.number(),
      retries: z.number(),
    }),
  ),
};

export const TraceRecordSchema = z
  .object({
    turn_id: z.number().int(),
    node: z.string(),
    service: z.string(),
    attempt: z.number().int(),
    delivery: z.number().int(),
    start: z.string(),
    end: z.string(),
    latency_ms: z.number(),
    ok: z.boolean(),
    error: z.string().nullable(),
    ...CallRecords,
  })
  .meta({
    id: 'TraceRecord',
    description: 'One node run: where, when, how long, and the LLM and engine calls it made.',
  });

export const TraceSchema = z
  .object({ session_id: z.string(), records: z.array(TraceRecordSchema) })
  .meta({ id: 'Trace', description: "A session's node runs, oldest first." });

export const RunResultSchema = z
  .object({
    session_id: z.string(),
    turn_id: z.number().int(),
    sql: z.string().describe('The SQL that ran: the session’s validated answer'),
    columns: z.array(z.string()),
    rows: z.array(z.array(z.unknown())),
    truncated: z.boolean().describe('The query had more rows than `limit`'),
    limit: z.number().int().describe('The row limit applied: the one asked for, at most `RUN_ROWS_MAX`'),
    elapsed_ms: z.number().nonnegative(),
  })
  .meta({
    id: 'RunResult',
    description: 'The rows of a session’s validated SQL, read-only, up to a row limit the server enforces.',
    example: {
      session_id: 'a'.repeat(32),
      turn_id: 1,
      sql: 'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings GROUP BY device_id',
      columns: ['device_id', 'avg_temp'],
      rows: [
        ['dev-01', 21.06],
        ['dev-02', 24.5],
      ],
      truncated: false,
      limit: 1000,
      elapsed_ms: 12,
    },
  });
export type RunResult = z.output<typeof RunResultSchema>;

export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]).describe('What went wrong, in the product’s words'),
    error: z.string().optional(),
  })
  .meta({
    id: 'ErrorBody',
    description: 'Every error answer.',
    examples: [{ statusCode: 404, message: `session ${SESSION_ID_EXAMPLE} not found`, error: 'Not Found' }],
  });
export type ErrorBody = z.output<typeof ErrorBodySchema>;

export const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** Every response body schema the gateway documents, by its component name. */
export const API_VIEW_SCHEMAS = [
  SessionViewSchema,
  SessionSummarySchema,
  SessionPageSchema,
  TargetListSchema,
  StreamInfoSchema,
  StreamDescriptionSchema,
  StreamListSchema,
  TraceRecordSchema,
  TraceSchema,
  RunResultSchema,
  ErrorBodySchema,
  HealthSchema,
  ...GLOSSARY_VIEW_SCHEMAS,
] as const;
