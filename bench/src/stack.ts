import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { WORKFLOW_QUEUES, type WorkflowQueue } from '@nl2p/graph';
import path from 'node:path';
import {
  FakeManager,
  ROOT,
  SERVICES,
  ScriptedLlm,
  ServiceProcess,
  deleteKeysWithPrefix,
  freePort,
  waitForHealth,
  type ServiceName,
} from '@nl2p/testing';
import { benchClient, type BenchClient } from './client';
import { redisPid } from './cpu';
import { sleep } from './stats';

/**
 * Where the bench's services are built (`scripts/bench.sh`): its own copy, so another build of
 * `dist/` during a run cannot swap code under running or restarting processes.
 */
export const BENCH_DIST = process.env.BENCH_DIST ?? path.join(ROOT, 'tmp/bench-dist');

/** Peak and current resident memory of one service process, from /proc/<pid>/status. */
export interface ProcessMemory {
  service: string;
  pid: number;
  vm_hwm_mb: number;
  vm_rss_mb: number;
}

/**
 * The product as deployed: the six built services as separate OS processes on one Redis, with the
 * fake Manager and the scripted LLM at their HTTP edges (in this process). Each instance can be
 * restarted with its own environment, e.g. a different `WORKER_CONCURRENCY` or a second replica.
 */
export class BenchStack {
  readonly manager = new FakeManager();
  readonly llm = new ScriptedLlm();
  readonly prefix = `bench${randomUUID().slice(0, 8)}`;
  /** An API key for the gateway, configured by hash as production does. */
  readonly apiKey = randomBytes(16).toString('hex');
  readonly redis: Redis;
  client!: BenchClient;
  private baseEnv: Record<string, string> = {};

  /** The environment every service started with (before per-instance overrides). */
  get env(): Record<string, string> {
    return { ...this.baseEnv };
  }
  private readonly instances = new Map<ServiceName, ServiceProcess[]>();

  constructor(
    readonly redisUrl: string,
    /** The build to run (another one for an A/B comparison, see bench/tools/cpu-per-turn.ts). */
    private readonly dist = BENCH_DIST,
  ) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  }

  async start(): Promise<void> {
    const [managerUrl, llmUrl, port] = await Promise.all([this.manager.start(), this.llm.start(), freePort()]);
    this.baseEnv = {
      REDIS_URL: this.redisUrl,
      REDIS_PREFIX: this.prefix,
      TARGET: 'veloflux',
      VELOFLUX_URL: managerUrl,
      ENGINE_BACKOFF_MS: '10',
      LLM_BASE_URL: llmUrl,
      LLM_API_KEY: 'bench-not-secret',
      LLM_MODEL: 'scripted',
      // The bench measures orchestration over the scripted router and free-SQL drafter.
      DRAFT_MODE: 'sql',
      LINKING: 'false',
      LLM_TIMEOUT_MS: '60000',
      LLM_MAX_RETRIES: '1',
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(port),
      TURN_WAIT_TIMEOUT_MS: '300000',
      API_KEYS: `bench:${createHash('sha256').update(this.apiKey).digest('hex')}`,
      // The gateway's per-tenant guards are for clients in production; the bench is one tenant
      // driving 64 sessions at once, so they are lifted out of the measurement.
      RATE_LIMIT_PER_MINUTE: '100000000',
      MAX_CONCURRENT_TURNS_PER_TENANT: '100000',
      MAX_TURNS_PER_SESSION: '100000',
      LOG_LEVEL: 'warn',
      LOG_JSON: 'true',
      // e.g. `--prof --logfile=tmp/prof/%p.log --no-logfile-per-isolate` to profile the services.
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      // Other workflow settings, e.g. the embedded default's reading route (bench/README.md).
      ...serviceEnvOverrides(),
    };
    for (const name of SERVICES) this.instances.set(name, [this.spawn(name, {})]);
    this.client = benchClient(`http://127.0.0.1:${port}`, this.apiKey);
    await waitForHealth(this.client.baseUrl, 60_000, this.all());
    await this.waitForWorkers({ 'router-llm': 1, 'sql-drafter': 1, validator: 1, explainer: 1 });
  }

  /**
   * Replaces every process of `service` with `replicas` fresh ones started with `env` on top of
   * the base environment, and resolves once each has its worker connected to the queue.
   */
  async restart(
    service: Exclude<ServiceName, 'gateway' | 'janitor'>,
    replicas: number,
    env: Record<string, string>,
  ): Promise<void> {
    await Promise.all((this.instances.get(service) ?? []).map((p) => p.stop()));
    const fresh = Array.from({ length: replicas }, () => this.spawn(service, env));
    this.instances.set(service, fresh);
    await this.waitForWorkers({ [service]: replicas });
  }

  processes(): { service: string; proc: ServiceProcess }[] {
    return [...this.instances.entries()].flatMap(([service, procs]) =>
      procs.map((proc, i) => ({ service: procs.length > 1 ? `${service}#${i + 1}` : service, proc })),
    );
  }

  /** VmHWM (peak resident set since the process started) and VmRSS of every service process. */
  memory(): ProcessMemory[] {
    return this.processes().map(({ service, proc }) => {
      const pid = proc.pid ?? -1;
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { service, pid, vm_hwm_mb: kb('VmHWM') / 1024, vm_rss_mb: kb('VmRSS') / 1024 };
    });
  }

  /** Stops every process and fake, and deletes every key this stack wrote. */
  async stop(): Promise<void> {
    await Promise.all(this.all().map((p) => p.stop()));
    await Promise.all([this.manager.stop(), this.llm.stop()]);
    await deleteKeysWithPrefix(this.redis, this.prefix);
    this.redis.disconnect();
  }

  /** Pids of the service processes and of Redis (when local), for CPU accounting. */
  pids(): number[] {
    const services = this.all().flatMap((p) => (p.pid ? [p.pid] : []));
    const redis = redisPid(Number(new URL(this.redisUrl).port || 6379));
    return redis ? [...services, redis] : services;
  }

  /** Output of processes that died, for an error message. */
  deadOutput(): string {
    return this.all()
      .filter((p) => !p.running)
      .map((p) => `--- ${p.name} exited:\n${p.output.slice(-4_000)}`)
      .join('\n');
  }

  private all(): ServiceProcess[] {
    return [...this.instances.values()].flat();
  }

  private spawn(name: ServiceName, env: Record<string, string>): ServiceProcess {
    const proc = new ServiceProcess(name, { ...this.baseEnv, ...env }, this.dist);
    proc.start();
    return proc;
  }

  private async waitForWorkers(want: Partial<Record<WorkflowQueue, number>>): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (const queue of WORKFLOW_QUEUES) {
      const count = want[queue];
      if (count === undefined) continue;
      const connection = this.redis.duplicate();
      const q = new Queue(queue, { connection, prefix: `${this.prefix}-bull` });
      try {
        while ((await q.getWorkersCount()) !== count) {
          const dead = this.deadOutput();
          if (dead) throw new Error(`a service died while starting:\n${dead}`);
          if (Date.now() > deadline) throw new Error(`queue ${queue}: ${count} worker(s) did not connect within 60 s`);
          await sleep(100);
        }
      } finally {
        await q.close();
        connection.disconnect();
      }
    }
  }
}

/**
 * `BENCH_SERVICE_ENV`: a JSON object of environment keys laid over the services' (and the
 * in-process graph's) settings, e.g. `{"LINKING":"true","DRAFT_MODE":"plan","PLAN_TRUST_LINKS":"true"}`
 * for the route a conclusive request takes on the embedded default.
 */
export function serviceEnvOverrides(): Record<string, string> {
  const raw = process.env.BENCH_SERVICE_ENV;
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('BENCH_SERVICE_ENV: a JSON object');
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
}
