import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import type { Job, Worker } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { nodesOf, type WorkflowQueue } from '@nl2p/graph';
import type { NodeJobData } from './dispatcher';
import { errorMessage } from './failures';
import { NodeRunner, type NodeHandlers, type RunOutcome } from './node-runner';

/**
 * Base of every workflow worker: `process()` only hands the job to the runner with this
 * service's node handlers. Subclasses add `@Processor(queue, WORKER_OPTIONS)`.
 */
export abstract class WorkflowWorker extends WorkerHost implements OnApplicationBootstrap {
  @Inject(NodeRunner) private readonly runner!: NodeRunner;
  @Inject(APP_CONFIG) private readonly config!: AppConfig;
  private readonly log = new Logger(WorkflowWorker.name);

  protected abstract readonly queue: WorkflowQueue;
  protected abstract readonly handlers: NodeHandlers;

  onApplicationBootstrap(): void {
    const missing = nodesOf(this.queue).filter((n) => !this.handlers[n]);
    if (missing.length) throw new Error(`${this.queue} worker lacks handlers for: ${missing.join(', ')}`);
    this.worker.concurrency = this.config.worker.concurrency;
    // A job can fail without its processor running (it stalled more often than allowed: its
    // worker kept dying). The runner's own failure handling never saw it, so end the turn here.
    this.worker.on('failed', (job: Job<NodeJobData> | undefined, err: Error) => {
      if (!job) return;
      this.runner.onJobFailed(job, err).catch((e: unknown) => {
        this.log.warn({ msg: 'could not end the turn of a failed job', job_id: job.id, error: errorMessage(e) });
      });
    });
    startWorker(this.worker, workerTiming(this.config));
  }

  process(job: Job<NodeJobData>): Promise<RunOutcome> {
    return this.runner.run(job, this.handlers, this.queue);
  }
}

/**
 * Static options of every workflow `@Processor`. `autorun` is off because `@Processor` options
 * are fixed when the class is declared, before the configuration is read: the lock settings
 * derived from it are applied in {@link startWorker}, which then starts the worker.
 */
export const WORKER_OPTIONS = { autorun: false } as const;

export interface WorkerTiming {
  lockDuration: number;
  stalledInterval: number;
  maxStalledCount: number;
}

/** Margin of the job lock over the slowest single LLM call. */
export const LOCK_MARGIN_MS = 5_000;

/**
 * Job lock settings from the configuration. The lock outlasts the slowest single LLM call (one
 * attempt may take up to `LLM_TIMEOUT_MS`, plus a margin), so even if every lock renewal during
 * that call were lost (a Redis restart), the job would not be handed to a second worker while
 * the first still runs it. BullMQ renews the lock every `lockDuration / 2` while the job runs, so
 * a logical call with retries, longer than one attempt, keeps its lock too. The lock is also how
 * long a SIGKILLed worker's job waits before it is re-delivered, plus up to one
 * `stalledInterval`; a job re-delivered more than `maxStalledCount` times fails, and its turn
 * ends with a clear error.
 */
export function workerTiming(config: Pick<AppConfig, 'llm'>): WorkerTiming {
  const lockDuration = config.llm.timeoutMs + LOCK_MARGIN_MS;
  return {
    lockDuration,
    stalledInterval: Math.min(15_000, Math.max(1_000, Math.round(lockDuration / 4))),
    maxStalledCount: 2,
  };
}

/** Applies the lock settings to a worker created with {@link WORKER_OPTIONS} and starts it. */
export function startWorker(worker: Worker, timing: WorkerTiming): void {
  Object.assign(worker.opts, {
    lockDuration: timing.lockDuration,
    lockRenewTime: timing.lockDuration / 2,
    stalledInterval: timing.stalledInterval,
    maxStalledCount: timing.maxStalledCount,
  });
  // The lock manager copies its settings when built; rebuild it with the new ones (BullMQ's
  // documented extension point for custom lock handling), before the worker takes any job.
  (worker as unknown as { createLockManager(): void }).createLockManager();
  worker.run().catch((err: unknown) => worker.emit('error', err instanceof Error ? err : new Error(String(err))));
}
