import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type AppConfig } from '@nl2p/config';
import { ensureDemoDatabase, targetProfile } from '@nl2p/engine';
import { llmProvider } from '@nl2p/llm';
import {
  ROOT,
  SERVICES,
  ServiceProcess,
  redisAnswers,
  startLocalRedis,
  waitForHealth,
  type LocalRedis,
  type ServiceName,
} from '@nl2p/launcher';
import { workerMetricsPorts, type WorkerName } from './metrics-ports';

/**
 * Runs the whole product on this machine from the build in `dist/`: Redis (the configured one, or
 * a local `redis-server` started here), the demo database of the embedded DuckDB target, and the
 * six services as separate processes, until Ctrl-C or until one of them exits. `npm start` and
 * the fuzz use it; the tests, bench and evals start the same `ServiceProcess`es from
 * `@nl2p/launcher`. Settings come from the environment, read by `@nl2p/config` like the services
 * read them.
 *
 *   node dist/apps/start/src/main.js [--throwaway] [--log-dir DIR]
 *
 * `--throwaway`: a Redis started here keeps nothing on disk (otherwise it is append-only under
 * `data/`, so sessions survive a restart), and no banner is printed.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { throwaway: { type: 'boolean', default: false }, 'log-dir': { type: 'string' } },
  });
  const logDir = path.resolve(values['log-dir'] ?? path.join(ROOT, 'tmp/logs'));
  mkdirSync(logDir, { recursive: true });
  const say = (line: string) => process.stderr.write(`[start] ${line}\n`);

  const env: Record<string, string> = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  env.DUCKDB_PATH ??= path.join(ROOT, 'data/demo.duckdb');
  const config = loadConfig(env);

  const redis = await ensureRedis(config.redis.url, values.throwaway ?? false, logDir, say);
  // The embedded default target reads the demo dataset, created on first start.
  mkdirSync(path.dirname(config.duckdb.path), { recursive: true });
  const demo = await ensureDemoDatabase(config.duckdb.path);
  say(`${demo.created ? 'created' : 'kept'} the demo database at ${config.duckdb.path}`);

  const metricsPorts = workerMetricsPorts(config.gateway.port, config.metrics.port);
  const envOf = (name: ServiceName) =>
    name === 'gateway' ? env : { ...env, METRICS_PORT: String(metricsPorts[name]) };
  const procs = SERVICES.map(
    (name) => new ServiceProcess(name, envOf(name), undefined, path.join(logDir, `${name}.log`)),
  );
  let stopping: Promise<void> | null = null;
  const stopAll = (): Promise<void> =>
    (stopping ??= (async () => {
      say('stopping services');
      await Promise.all(procs.map((p) => p.stop('SIGTERM', config.worker.shutdownGraceMs + 5_000)));
      await redis?.stop();
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll());

  for (const p of procs) p.start();
  const url = `http://${config.gateway.host}:${config.gateway.port}`;
  try {
    await waitForHealth(url, 60_000, procs);
  } catch (err) {
    say(`${err instanceof Error ? err.message : String(err)} (logs in ${logDir})`);
    await stopAll();
    return 1;
  }
  if (!values.throwaway) process.stdout.write(banner(config, url, logDir, metricsPorts));

  const first = await Promise.race(procs.map(async (p) => ({ name: p.name, code: await p.exited() })));
  if (stopping) {
    await stopAll(); // the stop a signal began
    return 0;
  }
  say(`${first.name} exited (${String(first.code)}); stopping the rest`);
  await stopAll();
  return 1;
}

/** The configured Redis when it answers; else, for a local address, one started here. */
async function ensureRedis(
  url: string,
  throwaway: boolean,
  logDir: string,
  say: (line: string) => void,
): Promise<LocalRedis | null> {
  const { hostname, port: portText } = new URL(url);
  const port = Number(portText || 6379);
  if (await redisAnswers(hostname, port)) return null;
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`Redis at ${url} is not reachable`);
  const dir = throwaway ? undefined : path.join(ROOT, `data/redis-${port}`);
  const redis = await startLocalRedis(port, { dir, logFile: path.join(logDir, 'redis.log') });
  say(`started redis-server on 127.0.0.1:${port}${dir ? ` (append-only data in ${dir})` : ''}`);
  return redis;
}

function banner(config: AppConfig, url: string, logDir: string, metricsPorts: Record<WorkerName, number>): string {
  const llm = llmProvider(config).whereabouts(config);
  const host = config.metrics.host;
  const workers = Object.entries(metricsPorts).map(([name, port]) => `${name} http://${host}:${port}/metrics`);
  return [
    'nl2pipeline is running.',
    `  gateway:   ${url}   (OpenAPI: ${url}/openapi.json, docs: ${url}/docs)`,
    `  console:   ${url}/console/   (in a browser)`,
    `  target:    ${config.target} (${targetProfile(config.target).whereabouts(config)})`,
    `  LLM:       ${llm}`,
    `  metrics:   gateway ${url}/metrics`,
    ...workers.map((w) => `             ${w}`),
    `  logs:      ${logDir}`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

void main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[start] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
