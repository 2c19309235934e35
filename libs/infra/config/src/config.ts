import { z } from 'zod';
import { TargetKind } from '@nl2p/envelope';

const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

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
  /** The embedded DuckDB database (created with the demo data by `npm start` when absent). */
  DUCKDB_PATH: z.string().default('data/demo.duckdb'),
  POSTGRES_URL: z.url().optional(),
  POSTGRES_SCHEMA: z.string().default('public'),
  /** SQL targets: rows shown in a preview, and the time limit of every query they run. */
  PREVIEW_ROWS: z.coerce.number().int().min(1).max(1_000).default(20),
  QUERY_TIMEOUT_MS: z.coerce.number().int().min(10).default(5_000),
  VELOFLUX_URL: z.url().default('http://127.0.0.1:8080'),
  ENGINE_TIMEOUT_MS: int(10_000),
  ENGINE_RETRIES: int(3),
  ENGINE_BACKOFF_MS: int(200),

  LLM_BASE_URL: z.url().default('http://127.0.0.1:11434/v1'),
  LLM_API_KEY: z.string().default('not-needed'),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_MODEL_ROUTER: z.string().optional(),
  LLM_MODEL_PREVIEW: z.string().optional(),
  LLM_MODEL_REASONING: z.string().optional(),
  LLM_TIMEOUT_MS: int(60_000),
  LLM_MAX_RETRIES: int(3),
  LLM_STRUCTURED_OUTPUT: z.enum(['json_schema', 'json_object', 'none']).default('json_object'),

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
  /** Put SQL text into spans (off by default: queries can hold business data). */
  TRACE_CONTENT: bool(false),
  /** Milliseconds between SSE heartbeats, so proxies keep idle streams open. */
  SSE_HEARTBEAT_MS: int(15_000),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  LOG_JSON: bool(true),
});

export type Env = z.infer<typeof EnvSchema>;

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

/** The structured configuration services receive (never raw env reads in code). */
export interface AppConfig {
  redis: { url: string; prefix: string };
  gateway: { host: string; port: number; turnWaitTimeoutMs: number };
  target: z.infer<typeof TargetKind>;
  duckdb: { path: string };
  postgres: { url: string | undefined; schema: string };
  sqlTargets: { previewRows: number; queryTimeoutMs: number };
  veloflux: { url: string; timeoutMs: number; retries: number; backoffMs: number };
  llm: {
    baseUrl: string;
    apiKey: string;
    models: { router: string; preview: string; reasoning: string };
    timeoutMs: number;
    maxRetries: number;
    structuredOutput: 'json_schema' | 'json_object' | 'none';
  };
  workflow: { maxAttempts: number };
  sink: { type: string; props: Record<string, unknown> };
  retention: { sessionTtlSeconds: number; catalogTtlSeconds: number; eventsMaxLen: number; traceMaxRecords: number };
  worker: { concurrency: number };
  log: { level: Env['LOG_LEVEL']; json: boolean };
  telemetry: { captureContent: boolean };
  sse: { heartbeatMs: number };
}

function toAppConfig(e: Env): AppConfig {
  return {
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    gateway: { host: e.GATEWAY_HOST, port: e.GATEWAY_PORT, turnWaitTimeoutMs: e.TURN_WAIT_TIMEOUT_MS },
    target: e.TARGET,
    duckdb: { path: e.DUCKDB_PATH },
    postgres: { url: e.POSTGRES_URL, schema: e.POSTGRES_SCHEMA },
    sqlTargets: { previewRows: e.PREVIEW_ROWS, queryTimeoutMs: e.QUERY_TIMEOUT_MS },
    veloflux: {
      url: e.VELOFLUX_URL,
      timeoutMs: e.ENGINE_TIMEOUT_MS,
      retries: e.ENGINE_RETRIES,
      backoffMs: e.ENGINE_BACKOFF_MS,
    },
    llm: {
      baseUrl: e.LLM_BASE_URL,
      apiKey: e.LLM_API_KEY,
      models: {
        router: e.LLM_MODEL_ROUTER ?? e.LLM_MODEL,
        preview: e.LLM_MODEL_PREVIEW ?? e.LLM_MODEL,
        reasoning: e.LLM_MODEL_REASONING ?? e.LLM_MODEL,
      },
      timeoutMs: e.LLM_TIMEOUT_MS,
      maxRetries: e.LLM_MAX_RETRIES,
      structuredOutput: e.LLM_STRUCTURED_OUTPUT,
    },
    workflow: { maxAttempts: e.MAX_ATTEMPTS },
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
    worker: { concurrency: e.WORKER_CONCURRENCY },
    log: { level: e.LOG_LEVEL, json: e.LOG_JSON },
    telemetry: { captureContent: e.TRACE_CONTENT },
    sse: { heartbeatMs: e.SSE_HEARTBEAT_MS },
  };
}
