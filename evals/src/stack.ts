import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@nl2p/config';
import { ensureDemoDatabase } from '@nl2p/engine';
import { SERVICES, ServiceProcess, deleteKeysWithPrefix, freePort, waitForHealth } from '@nl2p/testing';

/** Environment keys handed through to the services: the LLM and the knobs that shape answers. */
const PASS_THROUGH =
  /^(LLM_|LOCAL_|DRAFT_MODE$|LINKING$|PLAN_TRUST_LINKS$|MAX_ATTEMPTS$|QUERY_TIMEOUT_MS$|PREVIEW_ROWS$|ENGINE_|WORKER_CONCURRENCY$|CATALOG_TTL_SECONDS$|OTEL_|TRACE_CONTENT$|HOME$|NODE_LLAMA_CPP_)/;

/** The keys of `env` the services get: the LLM and the knobs that shape answers. */
export function passThroughEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => PASS_THROUGH.test(e[0]) && typeof e[1] === 'string'),
  );
}

/** The LLM settings worth printing beside the figures (never the key), with the provider they resolve to. */
export function llmSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const llm = loadConfig(passThroughEnv(env)).llm;
  const out: Record<string, string> =
    llm.provider === 'local'
      ? {
          provider: 'local (embedded, node-llama-cpp)',
          model: path.basename(llm.local.modelPath),
          constrained: String(llm.local.constrained),
          prompts: llm.local.prompts,
          threads: String(llm.local.threads),
        }
      : { provider: `openai-compatible at ${llm.baseUrl}`, structured_output: llm.structuredOutput };
  for (const [k, v] of Object.entries(env)) {
    if (!v || !/^(LLM_|LOCAL_)/.test(k) || /KEY|TOKEN|SECRET|PASSWORD/i.test(k)) continue;
    out[k] = v;
  }
  return out;
}

export interface EvalStack {
  gatewayUrl: string;
  apiKey: string;
  /** The demo database the services query (and the gold answers run on, read-only). */
  duckdbPath: string;
  stop(): Promise<void>;
}

/**
 * The six built services as separate processes for an eval run: the configured LLM (passed
 * through from the environment), a fresh demo DuckDB file, a private Redis prefix and, when given,
 * a real veloFlux Manager.
 */
export async function startEvalStack(opts: {
  redisUrl: string;
  dist: string;
  velofluxUrl?: string;
  /** LLM and tuning keys for the services (see {@link passThroughEnv}). */
  env: Record<string, string>;
}): Promise<EvalStack> {
  const prefix = `eval${randomUUID().slice(0, 8)}`;
  const duckdbPath = path.join(os.tmpdir(), `nl2p-eval-${randomUUID().slice(0, 8)}.duckdb`);
  await ensureDemoDatabase(duckdbPath);
  const apiKey = randomBytes(16).toString('hex');
  const port = await freePort();
  const passed =
    opts.env ??
    Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] => PASS_THROUGH.test(e[0]) && typeof e[1] === 'string',
      ),
    );
  const env: Record<string, string> = {
    ...passed,
    REDIS_URL: opts.redisUrl,
    REDIS_PREFIX: prefix,
    TARGET: 'duckdb',
    DUCKDB_PATH: duckdbPath,
    ...(opts.velofluxUrl ? { VELOFLUX_URL: opts.velofluxUrl } : {}),
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    TURN_WAIT_TIMEOUT_MS: '600000',
    API_KEYS: `eval:${createHash('sha256').update(apiKey).digest('hex')}`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_CONCURRENT_TURNS_PER_TENANT: '1000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    LOG_JSON: 'true',
  };
  const procs = SERVICES.map((name) => new ServiceProcess(name, env, opts.dist));
  const stop = async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await deleteKeysWithPrefix(opts.redisUrl, prefix);
    rmSync(duckdbPath, { force: true });
    rmSync(`${duckdbPath}.wal`, { force: true });
  };
  try {
    procs.forEach((p) => p.start());
    await waitForHealth(`http://127.0.0.1:${port}`, 60_000, procs);
  } catch (err) {
    await stop();
    throw err;
  }
  return { gatewayUrl: `http://127.0.0.1:${port}`, apiKey, duckdbPath, stop };
}

/**
 * Fails fast, with a clear message, when the configured OpenAI-compatible server does not answer.
 * Nothing to check when the services resolve to the embedded local model.
 */
export async function checkLlmReachable(env: NodeJS.ProcessEnv): Promise<void> {
  if (loadConfig(passThroughEnv(env)).llm.provider === 'local') return;
  const base = env.LLM_BASE_URL ?? 'http://127.0.0.1:11434/v1';
  try {
    const res = await fetch(`${base.replace(/\/$/, '')}/models`, {
      headers: env.LLM_API_KEY ? { authorization: `Bearer ${env.LLM_API_KEY}` } : {},
      signal: AbortSignal.timeout(5_000),
    });
    await res.body?.cancel();
  } catch (err) {
    throw new Error(
      `no LLM answers at LLM_BASE_URL=${base} (${err instanceof Error ? err.message : String(err)}). ` +
        'Set LLM_BASE_URL / LLM_API_KEY / LLM_MODEL (or put them in .env), point EVAL_GATEWAY_URL at a running gateway, ' +
        'or unset LLM_BASE_URL to use the embedded local model.',
    );
  }
}
