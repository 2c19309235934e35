import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { METRICS_CONTENT_TYPE, metricsText } from '@nl2p/metrics';
import { errorMessage } from './failures';
import { REDIS } from './tokens';

/** What `/health` answers: ready, or why not. */
export interface Readiness {
  ready: boolean;
  reason?: string;
  workers: number;
}

/**
 * The BullMQ workers of a worker app, seen from outside: readiness (Redis reachable, every worker
 * consuming), the probe and metrics server (`METRICS_PORT`: `/metrics`, `/health`,
 * `/health/live`), and the graceful stop on SIGTERM: take no new job, give the running ones
 * `SHUTDOWN_GRACE_MS` to finish, then hand what still runs back to the queue, so another replica
 * takes it at once instead of after the job lock expires. Handing back is safe because a job's
 * effects are checkpointed with compare-and-set: a twin run loses and drops its result.
 * Apps without workers (the gateway) find none here and start nothing.
 */
@Injectable()
export class WorkerLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('WorkerLifecycle');
  private readonly running = new Map<Worker, Set<Job>>();
  private server: Server | undefined;
  private stopping = false;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Every BullMQ worker of this app. */
  workers(): Worker[] {
    return this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker);
  }

  async onApplicationBootstrap(): Promise<void> {
    const workers = this.workers();
    for (const worker of workers) {
      const jobs = new Set<Job>();
      this.running.set(worker, jobs);
      worker.on('active', (job: Job) => jobs.add(job));
      worker.on('completed', (job: Job) => jobs.delete(job));
      worker.on('failed', (job: Job | undefined) => job && jobs.delete(job));
    }
    if (workers.length && this.config.metrics.port !== undefined) await this.listen(this.config.metrics.port);
  }

  /** Where the probe server listens (`null` when it does not run). */
  probeAddress(): { host: string; port: number } | null {
    const address = this.server?.address() as AddressInfo | null | undefined;
    return address ? { host: address.address, port: address.port } : null;
  }

  async readiness(): Promise<Readiness> {
    const workers = this.workers();
    const not = (reason: string): Readiness => ({ ready: false, reason, workers: workers.length });
    if (this.stopping) return not('stopping');
    try {
      await this.redis.ping();
    } catch (err) {
      return not(`redis unreachable: ${errorMessage(err)}`);
    }
    const idle = workers.filter((w) => !w.isRunning() || w.isPaused());
    if (!workers.length || idle.length)
      return not(`not consuming: ${idle.map((w) => w.name).join(', ') || 'no worker'}`);
    return { ready: true, workers: workers.length };
  }

  /** Runs before the workers are closed (Nest closes them in its shutdown hooks). */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    if (!this.running.size) return;
    this.stopping = true;
    const workers = [...this.running.keys()];
    // Take no new job; the running ones go on.
    await Promise.all(workers.map((w) => w.pause(true).catch(() => undefined)));
    const deadline = Date.now() + this.config.worker.shutdownGraceMs;
    while (Date.now() < deadline && this.runningJobs().length) await sleep(100);
    const left = this.runningJobs();
    for (const job of left) {
      try {
        await job.moveToWait(job.token);
      } catch (err) {
        // Its lock may be gone already (it finished this instant); the stalled check covers the rest.
        this.logger.warn({ msg: 'could not hand a job back', job_id: job.id, error: errorMessage(err) });
      }
    }
    if (left.length || signal) {
      this.logger.log({
        msg: 'worker stopping',
        signal: signal ?? null,
        handed_back: left.map((j) => j.id),
      });
    }
    // Do not wait for processors whose jobs were handed back: their results lose the compare-and-set.
    await Promise.all(workers.map((w) => w.close(left.length > 0).catch(() => undefined)));
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private runningJobs(): Job[] {
    return [...this.running.values()].flatMap((jobs) => [...jobs]);
  }

  private async listen(port: number): Promise<void> {
    const server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.metrics.host, () => resolve());
    });
    this.server = server;
    const at = this.probeAddress();
    this.logger.log(`metrics and probes on http://${at?.host}:${at?.port} (/metrics, /health, /health/live)`);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'GET') return json(405, { message: 'only GET' });
      if (path === '/metrics') {
        const text = await metricsText();
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
        return void res.end(text);
      }
      if (path === '/health/live') return json(200, { status: 'ok' });
      if (path === '/health') {
        const r = await this.readiness();
        return json(
          r.ready ? 200 : 503,
          r.ready ? { status: 'ok', workers: r.workers } : { status: 'unavailable', ...r },
        );
      }
      json(404, { message: `no route ${path}; try /metrics, /health, /health/live` });
    } catch (err) {
      json(500, { message: errorMessage(err) });
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
