import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { sleep } from './stats';

const WORKER_SCRIPT = path.join(__dirname, 'floor-worker.ts');

/**
 * The floor the orchestration runs on: a raw BullMQ chain. One worker process per workflow queue
 * (as the services are spread), each at the services' default concurrency, hands a job carrying
 * a real envelope's worth of JSON to the next queue of the route, hop after hop, until the route
 * ends. The load generator adds the first job and hears the last one complete through
 * `QueueEvents`, as the gateway hears a turn end through its event stream. What a turn costs
 * above this is what the orchestration adds (checkpoints, events, trace, stale checks, gateway).
 */
export class BullFloor {
  readonly prefix: string;
  private readonly children: ChildProcess[] = [];
  private readonly output: string[] = [];
  private readonly producers = new Map<string, Queue>();
  private readonly listeners: QueueEvents[] = [];
  private readonly waiting = new Map<string, () => void>();
  private readonly connections: Redis[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly redisUrl: string,
    stackPrefix: string,
    private readonly queues: readonly string[],
    private readonly concurrency = 8,
  ) {
    // Under the stack's prefix, so the stack's cleanup removes the floor's keys too.
    this.prefix = `${stackPrefix}-floor`;
  }

  async start(): Promise<void> {
    for (const queue of this.queues) {
      const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', WORKER_SCRIPT], {
        env: {
          PATH: process.env.PATH ?? '',
          REDIS_URL: this.redisUrl,
          FLOOR_PREFIX: this.prefix,
          FLOOR_QUEUE: queue,
          FLOOR_CONCURRENCY: String(this.concurrency),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const i = this.output.push('') - 1;
      const keep = (b: Buffer) => (this.output[i] = (this.output[i] + b.toString()).slice(-4_000));
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      this.children.push(child);
    }
    for (const queue of this.queues) {
      const [producer, blocking] = [0, 1].map(() => this.redis.duplicate({ maxRetriesPerRequest: null }));
      this.connections.push(producer, blocking);
      this.producers.set(queue, new Queue(queue, { connection: producer, prefix: this.prefix }));
      const events = new QueueEvents(queue, { connection: blocking, prefix: this.prefix });
      events.on('completed', ({ jobId }) => {
        this.waiting.get(jobId)?.();
        this.waiting.delete(jobId);
      });
      await events.waitUntilReady();
      this.listeners.push(events);
    }
    const deadline = Date.now() + 30_000;
    for (const q of this.producers.values()) {
      while ((await q.getWorkersCount()) < 1) {
        const dead = this.children.findIndex((c) => c.exitCode !== null);
        if (dead >= 0) throw new Error(`a floor worker exited:\n${this.output[dead]}`);
        if (Date.now() > deadline) throw new Error(`floor queue ${q.name}: no worker within 30 s`);
        await sleep(100);
      }
    }
  }

  pids(): number[] {
    return this.children.flatMap((c) => (c.pid ? [c.pid] : []));
  }

  /** One chain along `route` (queue names) carrying `payload`; resolves with its wall-clock ms. */
  async chain(route: readonly string[], payload: unknown): Promise<number> {
    const chain = randomUUID();
    const last = `${chain}-${route.length - 1}`;
    const started = performance.now();
    const done = new Promise<void>((resolve) => this.waiting.set(last, resolve));
    const first = this.producers.get(route[0]);
    if (!first) throw new Error(`floor has no queue ${route[0]}`);
    await first.add(
      'hop',
      { chain, route, hop: 0, payload },
      { jobId: `${chain}-0`, removeOnComplete: true, removeOnFail: true },
    );
    await done;
    return performance.now() - started;
  }

  async stop(): Promise<void> {
    await Promise.all(this.listeners.map((l) => l.close()));
    await Promise.all([...this.producers.values()].map((q) => q.close()));
    for (const c of this.connections) c.disconnect();
    await Promise.all(
      this.children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 5_000).unref();
          }),
      ),
    );
  }
}
