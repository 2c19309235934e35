import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@nl2p/config';
import { ensureDemoDatabase } from '@nl2p/engine';
import { llmProvider } from '@nl2p/llm';
import { SERVICES, ServiceProcess, deleteKeysWithPrefix, freePort, waitForHealth } from '@nl2p/testing';

/** Environment keys handed through to the services: the LLM and the knobs that shape answers. */
const PASS_THROUGH =
  /^(LLM_|LOCAL_|DRAFT_MODE$|LINKING$|PLAN_TRUST_LINKS$|MAX_ATTEMPTS$|QUERY_TIMEOUT_MS$|VELOFLUX_DRY_RUN|PREVIEW_ROWS$|ENGINE_|WORKER_CONCURRENCY$|CATALOG_TTL_SECONDS$|OTEL_|TRACE_CONTENT$|HOME$|NODE_LLAMA_CPP_)/;

/** The keys of `env` the services get: the LLM and the knobs that shape answers. */
export function passThroughEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => PASS_THROUGH.test(e[0]) && typeof e[1] === 'string'),
  );
}

/** The LLM settings worth printing beside the figures (never the key), with the provider they resolve to. */
export function llmSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  const config = loadConfig(passThroughEnv(env));
  const out = llmProvider(config).settings(config);
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
 * Fails fast, with a clear message, when the configured LLM cannot be reached (the provider's own check).
 * Nothing to check for the embedded local model (its services load it at start).
 */
export async function checkLlmReachable(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(passThroughEnv(env));
  try {
    await llmProvider(config).checkReachable?.(config);
  } catch (err) {
    throw new Error(
      `${err instanceof Error ? err.message : String(err)} (or point EVAL_GATEWAY_URL at a running gateway)`,
    );
  }
}
