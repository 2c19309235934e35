import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { TargetKind } from '@nl2p/envelope';
import { defaultSqlSources, SqlSourcesSchema, type SqlSourceConfig } from './sql-sources';

const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Where `LLM_PROVIDER=openai` sends requests when `LLM_BASE_URL` is unset (Ollama's default port). */
export const DEFAULT_LLM_BASE_URL = 'http://127.0.0.1:11434/v1';
/** Where a veloFlux Manager is looked for when it is the default target and `VELOFLUX_URL` is unset. */
export const DEFAULT_VELOFLUX_URL = 'http://127.0.0.1:8080';

/**
 * Every environment key the services read, validated once at boot. Unknown keys are ignored
 * (the environment holds much else); every bad key is listed in one error.
 */
export const EnvSchema = z.object({
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Key and BullMQ prefix, so several deployments (or test files) can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('nl2p'),

  GATEWAY_HOST: z.string().default('127.0.0.1'),
  GATEWAY_PORT: int(3000),
  /** How long `wait` mode holds a request open before answering with the running view. */
  TURN_WAIT_TIMEOUT_MS: int(120_000),

  /** Engine of new sessions; each session may choose another configured one. */
  TARGET: TargetKind.default('duckdb'),

  /** Turns off API keys (local use only; `npm start` says so loudly). */
  AUTH_DISABLED: bool(false),
  /**
   * `tenant:sha256hex` entries, comma-separated: the SHA-256 of each key, never the key itself
   * (`printf %s "$KEY" | sha256sum`). Several keys may share a tenant.
   */
  API_KEYS: z
    .string()
    .default('')
    .refine(
      (v) => v.split(',').every((e) => !e.trim() || /^[A-Za-z0-9_.-]{1,64}:[0-9a-fA-F]{64}$/.test(e.trim())),
      'each entry must be tenant:sha256hex (tenant: letters, digits, _ . -; 64 hex digits)',
    ),
  /** Requests per minute per tenant (per IP before auth), counted in Redis across replicas. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1_200),
  MAX_BODY_BYTES: z.coerce.number().int().min(1_024).max(10_485_760).default(65_536),
  MAX_TURNS_PER_SESSION: z.coerce.number().int().min(1).default(500),
  MAX_TURN_TEXT: z.coerce.number().int().min(1).max(20_000).default(4_000),
  MAX_CONCURRENT_TURNS_PER_TENANT: z.coerce.number().int().min(1).default(32),
  /** Origins allowed to call the gateway from a browser, comma-separated; empty: CORS off. */
  CORS_ORIGINS: z.string().default(''),
  /** The embedded DuckDB database (created with the demo data by `npm start` when absent). */
  DUCKDB_PATH: z.string().default('data/demo.duckdb'),
  POSTGRES_URL: z.url().optional(),
  POSTGRES_SCHEMA: z.string().default('public'),
  /** SQL targets: rows shown in a preview, and the time limit of every query they run. */
  PREVIEW_ROWS: z.coerce.number().int().min(1).max(1_000).default(20),
  /** SQL targets: the most rows one run of an answer's query returns (`POST /v1/sessions/{id}/run`). */
  RUN_ROWS_MAX: z.coerce.number().int().min(1).max(100_000).default(10_000),
  /**
   * Named SQL sources a session may query together: `name=engine:location`, comma-separated
   * (`orders=postgres:postgres://…#schema,telemetry=duckdb:data/t.duckdb`). Unset: the SQL
   * targets above, named `duckdb` and `postgres`.
   */
  SQL_SOURCES: SqlSourcesSchema,
  /**
   * Rows one source's part of a multi-source question may return; a part that reaches it is
   * reported and nothing is joined from it (the person is asked to narrow the request).
   */
  SOURCE_ROW_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  QUERY_TIMEOUT_MS: z.coerce.number().int().min(10).default(5_000),
  /**
   * The veloFlux Manager. Unset, veloFlux is offered only when it is the default `TARGET` (then at
   * http://127.0.0.1:8080), so a deployment without a Manager does not list one it cannot reach.
   */
  VELOFLUX_URL: z.url().optional(),
  /**
   * Runs every veloFlux candidate on sample rows before offering it (a temporary stream and
   * pipeline, fed over MQTT); `false` judges by create and explain alone.
   */
  VELOFLUX_DRY_RUN: bool(true),
  /** The dry run's time limit, waiting for a window's first flush included. */
  VELOFLUX_DRY_RUN_LIMIT_MS: z.coerce.number().int().min(2_000).default(25_000),
  /** The MQTT broker the dry run publishes to (as the engine reaches it too); default: the stream's own. */
  VELOFLUX_DRY_RUN_BROKER_URL: z.string().min(1).optional(),
  ENGINE_TIMEOUT_MS: int(10_000),
  ENGINE_RETRIES: int(3),
  ENGINE_BACKOFF_MS: int(200),

  /**
   * `auto`: the OpenAI-compatible server when `LLM_BASE_URL` is set, else the embedded local model
   * (`LOCAL_MODEL_PATH`). `openai` without `LLM_BASE_URL` uses {@link DEFAULT_LLM_BASE_URL}.
   */
  LLM_PROVIDER: z.enum(['auto', 'local', 'openai']).default('auto'),
  /** No default on purpose: whether it is set decides `LLM_PROVIDER=auto`. */
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().default('not-needed'),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_MODEL_ROUTER: z.string().optional(),
  LLM_MODEL_PREVIEW: z.string().optional(),
  LLM_MODEL_REASONING: z.string().optional(),
  LLM_TIMEOUT_MS: int(60_000),
  LLM_MAX_RETRIES: int(3),
  LLM_STRUCTURED_OUTPUT: z.enum(['json_schema', 'json_object', 'none']).default('json_object'),
  /** The local provider's GGUF model (relative paths from the working directory). */
  LOCAL_MODEL_PATH: z.string().default('models/SmolLM2-135M-Instruct.Q4_1.gguf'),
  /** Tokens per sequence (prompt + answer); bounds memory. */
  LOCAL_CONTEXT_SIZE: z.coerce.number().int().min(512).max(131_072).default(4096),
  /** Longest answer in tokens. */
  LOCAL_MAX_TOKENS: z.coerce.number().int().min(16).max(32_768).default(512),
  /** CPU threads for the local model; default one core fewer than the machine has (at least 1). */
  LOCAL_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  /** Parallel sequences in the one context; calls beyond them wait in order. */
  LOCAL_SEQUENCES: z.coerce.number().int().min(1).max(64).default(1),
  /** Grammar-constrained decoding of the local model (false only to measure what it buys). */
  LOCAL_CONSTRAINED: bool(true),
  /** Penalty per repetition of a token in the last 48 (breaks a small model's loops); 0: off. */
  LOCAL_FREQUENCY_PENALTY: z.coerce.number().min(0).max(2).default(0.6),
  /** `compact` prompts (columns and rules, no function catalog) suit small models; `full` big ones. */
  LOCAL_PROMPTS: z.enum(['compact', 'full']).default('compact'),

  /**
   * How drafts are written: `plan` (the LLM fills a typed query plan under an enumerated schema,
   * each target compiles it), `sql` (free SQL), `auto` (a plan, free SQL only for what the plan
   * language cannot say). Unset: `plan` for the embedded model, `auto` for a server.
   */
  DRAFT_MODE: z.enum(['plan', 'sql', 'auto']).optional(),
  /**
   * Deterministic linking of the request's words to the catalog decides obvious intents without
   * the router model, and picks the one table a request points at instead of asking.
   */
  LINKING: bool(true),
  /**
   * Plan mode: take the linker's plan without a model call when linking was conclusive. Unset:
   * on for the embedded model (it would only copy or spoil it), off for a server.
   */
  PLAN_TRUST_LINKS: z.enum(['true', 'false']).optional(),
  /**
   * Who words the answer of a question over sources: `template` (by rule) or `model` (the model
   * writes it, kept only when every number in it is in the rows). Unset: the model with a server,
   * the template with the embedded model (a 135M model's sentence would mostly be refused).
   */
  ANSWER_WRITER: z.enum(['template', 'model']).optional(),
  /**
   * Plan mode: a word that fits several columns equally is the model's to choose among them (an
   * enumeration, shown as an assumption) instead of a question for the person. Off by default:
   * the embedded 135M model, measured, answered more wrong than right where the person would
   * have been asked (see README, "The model as a chooser"); a server model may turn it on.
   */
  MODEL_CHOOSES: bool(false),

  MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  SINK_TYPE: z.string().default('mqtt'),
  SINK_BROKER_URL: z.string().default('tcp://127.0.0.1:1883'),
  SINK_TOPIC: z.string().default('nl2pipeline/output'),
  SINK_QOS: z.coerce.number().int().min(0).max(2).default(0),

  SESSION_TTL_SECONDS: int(7 * 24 * 3600),
  CATALOG_TTL_SECONDS: int(300),
  EVENTS_MAX_LEN: int(2_000),
  TRACE_MAX_RECORDS: int(500),

  /** Jobs one worker process runs at once; LLM workers scale out with this or more replicas. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Scales every node's job-retry backoff from the graph (e.g. 0.1 in tests, 2 for a slow LLM). */
  JOB_BACKOFF_FACTOR: z.coerce.number().min(0).max(100).default(1),
  /** How often the janitor sweeps (one replica at a time). */
  JANITOR_SWEEP_EVERY_MS: z.coerce.number().int().min(100).default(60_000),
  /** A temp pipeline first seen longer ago than this is deleted even if a running turn owns it. */
  JANITOR_TMP_MAX_AGE_MS: z.coerce.number().int().min(1_000).default(900_000),
  /**
   * Another deployment's temp pipeline (one Manager shared by several deployments) is deleted
   * only when first seen longer ago than this: far past any turn's lifetime.
   */
  JANITOR_FOREIGN_TMP_MAX_AGE_MS: z.coerce.number().int().min(1_000).default(86_400_000),
  /**
   * Names this deployment in its temp pipeline ids (8 hex digits). Default: derived from the Redis
   * that holds its sessions (URL and prefix), which is what makes two deployments two.
   */
  DEPLOYMENT_ID: z
    .string()
    .regex(/^[0-9a-f]{8}$/, '8 lowercase hex digits')
    .optional(),
  /** A running turn with no checkpoint for this long is ended as failed by the janitor. */
  TURN_DEADLINE_MS: z.coerce.number().int().min(1_000).default(600_000),
  /** Put SQL text into spans (off by default: queries can hold business data). */
  TRACE_CONTENT: bool(false),
  /** Milliseconds between SSE heartbeats, so proxies keep idle streams open. */
  SSE_HEARTBEAT_MS: int(15_000),
  /**
   * Workers only: the small HTTP port serving `/metrics` (Prometheus), `/health` (readiness:
   * Redis reachable, workers consuming) and `/health/live`. Unset: no such server (local runs
   * start five workers on one host); deployments set it (Kubernetes and compose: 9464).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * On SIGTERM a worker stops taking jobs and gives its running ones this long to finish; what
   * still runs then is handed back to the queue for another replica. Keep it below the pod's
   * termination grace period.
   */
  SHUTDOWN_GRACE_MS: int(20_000),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  LOG_JSON: bool(true),
});

export type Env = z.infer<typeof EnvSchema>;
export type DraftMode = 'plan' | 'sql' | 'auto';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates the environment; throws one error naming every bad key and why. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  // Empty strings mean "unset" in most deployment tools; let the defaults apply.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return toAppConfig(parsed.data);
}

/** The gateway refuses to start with auth on and no key: nobody could call it. */
export function assertAuthConfigured(config: AppConfig): void {
  if (config.auth.enabled && config.auth.keys.length === 0) {
    throw new ConfigError(
      'invalid configuration:\n  API_KEYS: no API key is configured; set API_KEYS=tenant:sha256hex,… or AUTH_DISABLED=true for local use',
    );
  }
}

function parseApiKeys(raw: string): { tenant: string; sha256: Buffer }[] {
  return raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((e) => {
      const [tenant, hex] = e.split(':');
      return { tenant, sha256: Buffer.from(hex.toLowerCase(), 'hex') };
    });
}

/** The structured configuration services receive (never raw env reads in code). */
export interface AppConfig {
  redis: { url: string; prefix: string };
  gateway: { host: string; port: number; turnWaitTimeoutMs: number };
  target: z.infer<typeof TargetKind>;
  auth: { enabled: boolean; keys: { tenant: string; sha256: Buffer }[] };
  limits: {
    ratePerMinute: number;
    maxBodyBytes: number;
    turnsPerSession: number;
    turnTextMax: number;
    concurrentTurnsPerTenant: number;
  };
  cors: { origins: string[] };
  duckdb: { path: string };
  postgres: { url: string | undefined; schema: string };
  sqlTargets: { previewRows: number; runRowsMax: number; queryTimeoutMs: number };
  /** The named SQL sources a multi-source session reads, each part under these limits. */
  sources: { list: SqlSourceConfig[]; rowLimit: number; queryTimeoutMs: number };
  veloflux: {
    /** Whether sessions may use veloFlux here: `VELOFLUX_URL` is set, or veloFlux is the default target. */
    configured: boolean;
    url: string;
    timeoutMs: number;
    retries: number;
    backoffMs: number;
    /** Candidates run on sample rows before they are offered (`VELOFLUX_DRY_RUN*`). */
    dryRun: { enabled: boolean; limitMs: number; brokerUrl: string | undefined };
  };
  llm: {
    /** Resolved from `LLM_PROVIDER` (see there). */
    provider: 'local' | 'openai';
    baseUrl: string;
    apiKey: string;
    models: { router: string; preview: string; reasoning: string };
    timeoutMs: number;
    maxRetries: number;
    structuredOutput: 'json_schema' | 'json_object' | 'none';
    local: {
      modelPath: string;
      contextSize: number;
      maxTokens: number;
      threads: number;
      sequences: number;
      constrained: boolean;
      frequencyPenalty: number;
      prompts: 'compact' | 'full';
    };
  };
  workflow: {
    maxAttempts: number;
    draftMode: DraftMode;
    linking: boolean;
    planTrustLinks: boolean;
    modelChooses: boolean;
    /** Who words answers over sources (`ANSWER_WRITER`). */
    answerWriter: 'template' | 'model';
  };
  sink: { type: string; props: Record<string, unknown> };
  retention: { sessionTtlSeconds: number; catalogTtlSeconds: number; eventsMaxLen: number; traceMaxRecords: number };
  worker: { concurrency: number; backoffFactor: number; shutdownGraceMs: number };
  /** The workers' probe and metrics server (`METRICS_PORT`); `port` undefined: none. */
  metrics: { host: string; port: number | undefined };
  janitor: { sweepEveryMs: number; tmpMaxAgeMs: number; foreignTmpMaxAgeMs: number; turnDeadlineMs: number };
  /** Names this deployment in its temp pipeline ids (see `DEPLOYMENT_ID`). */
  deploymentId: string;
  log: { level: Env['LOG_LEVEL']; json: boolean };
  telemetry: { captureContent: boolean };
  sse: { heartbeatMs: number };
}

function toAppConfig(e: Env): AppConfig {
  const provider = e.LLM_PROVIDER === 'auto' ? (e.LLM_BASE_URL ? 'openai' : 'local') : e.LLM_PROVIDER;
  return {
    deploymentId:
      e.DEPLOYMENT_ID ?? createHash('sha256').update(`${e.REDIS_URL}\n${e.REDIS_PREFIX}`).digest('hex').slice(0, 8),
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    gateway: { host: e.GATEWAY_HOST, port: e.GATEWAY_PORT, turnWaitTimeoutMs: e.TURN_WAIT_TIMEOUT_MS },
    target: e.TARGET,
    auth: { enabled: !e.AUTH_DISABLED, keys: parseApiKeys(e.API_KEYS) },
    limits: {
      ratePerMinute: e.RATE_LIMIT_PER_MINUTE,
      maxBodyBytes: e.MAX_BODY_BYTES,
      turnsPerSession: e.MAX_TURNS_PER_SESSION,
      turnTextMax: e.MAX_TURN_TEXT,
      concurrentTurnsPerTenant: e.MAX_CONCURRENT_TURNS_PER_TENANT,
    },
    cors: {
      origins: e.CORS_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    },
    duckdb: { path: e.DUCKDB_PATH },
    postgres: { url: e.POSTGRES_URL, schema: e.POSTGRES_SCHEMA },
    sqlTargets: { previewRows: e.PREVIEW_ROWS, runRowsMax: e.RUN_ROWS_MAX, queryTimeoutMs: e.QUERY_TIMEOUT_MS },
    sources: {
      list: defaultSqlSources(e.SQL_SOURCES, e.DUCKDB_PATH, { url: e.POSTGRES_URL, schema: e.POSTGRES_SCHEMA }),
      rowLimit: e.SOURCE_ROW_LIMIT,
      queryTimeoutMs: e.QUERY_TIMEOUT_MS,
    },
    veloflux: {
      configured: e.VELOFLUX_URL !== undefined || e.TARGET === 'veloflux',
      url: e.VELOFLUX_URL ?? DEFAULT_VELOFLUX_URL,
      timeoutMs: e.ENGINE_TIMEOUT_MS,
      retries: e.ENGINE_RETRIES,
      backoffMs: e.ENGINE_BACKOFF_MS,
      dryRun: {
        enabled: e.VELOFLUX_DRY_RUN,
        limitMs: e.VELOFLUX_DRY_RUN_LIMIT_MS,
        brokerUrl: e.VELOFLUX_DRY_RUN_BROKER_URL,
      },
    },
    llm: {
      provider,
      baseUrl: e.LLM_BASE_URL ?? DEFAULT_LLM_BASE_URL,
      apiKey: e.LLM_API_KEY,
      models: {
        router: e.LLM_MODEL_ROUTER ?? e.LLM_MODEL,
        preview: e.LLM_MODEL_PREVIEW ?? e.LLM_MODEL,
        reasoning: e.LLM_MODEL_REASONING ?? e.LLM_MODEL,
      },
      timeoutMs: e.LLM_TIMEOUT_MS,
      maxRetries: e.LLM_MAX_RETRIES,
      structuredOutput: e.LLM_STRUCTURED_OUTPUT,
      local: {
        modelPath: e.LOCAL_MODEL_PATH,
        contextSize: e.LOCAL_CONTEXT_SIZE,
        maxTokens: e.LOCAL_MAX_TOKENS,
        threads: e.LOCAL_THREADS ?? Math.max(1, availableParallelism() - 1),
        sequences: e.LOCAL_SEQUENCES,
        constrained: e.LOCAL_CONSTRAINED,
        frequencyPenalty: e.LOCAL_FREQUENCY_PENALTY,
        prompts: e.LOCAL_PROMPTS,
      },
    },
    workflow: {
      maxAttempts: e.MAX_ATTEMPTS,
      draftMode: e.DRAFT_MODE ?? (provider === 'local' ? 'plan' : 'auto'),
      linking: e.LINKING,
      planTrustLinks: e.PLAN_TRUST_LINKS ? e.PLAN_TRUST_LINKS === 'true' : provider === 'local',
      modelChooses: e.MODEL_CHOOSES,
      answerWriter: e.ANSWER_WRITER ?? (provider === 'local' ? 'template' : 'model'),
    },
    sink:
      e.SINK_TYPE === 'mqtt'
        ? { type: 'mqtt', props: { broker_url: e.SINK_BROKER_URL, topic: e.SINK_TOPIC, qos: e.SINK_QOS } }
        : { type: e.SINK_TYPE, props: {} },
    retention: {
      sessionTtlSeconds: e.SESSION_TTL_SECONDS,
      catalogTtlSeconds: e.CATALOG_TTL_SECONDS,
      eventsMaxLen: e.EVENTS_MAX_LEN,
      traceMaxRecords: e.TRACE_MAX_RECORDS,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      backoffFactor: e.JOB_BACKOFF_FACTOR,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    },
    metrics: { host: e.METRICS_HOST, port: e.METRICS_PORT },
    janitor: {
      sweepEveryMs: e.JANITOR_SWEEP_EVERY_MS,
      tmpMaxAgeMs: e.JANITOR_TMP_MAX_AGE_MS,
      foreignTmpMaxAgeMs: e.JANITOR_FOREIGN_TMP_MAX_AGE_MS,
      turnDeadlineMs: e.TURN_DEADLINE_MS,
    },
    log: { level: e.LOG_LEVEL, json: e.LOG_JSON },
    telemetry: { captureContent: e.TRACE_CONTENT },
    sse: { heartbeatMs: e.SSE_HEARTBEAT_MS },
  };
}
