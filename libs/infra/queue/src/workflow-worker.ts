import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { nodesOf, type WorkflowQueue } from '@nl2p/graph';
import type { NodeJobData } from './dispatcher';
import { NodeRunner, type NodeHandlers, type RunOutcome } from './node-runner';

/**
 * Base of every workflow worker: `process()` only hands the job to the runner with this
 * service's node handlers. Subclasses add `@Processor(queue, WORKER_OPTIONS)`.
 */
export abstract class WorkflowWorker extends WorkerHost implements OnApplicationBootstrap {
  @Inject(NodeRunner) private readonly runner!: NodeRunner;
  @Inject(APP_CONFIG) private readonly config!: AppConfig;

  protected abstract readonly queue: WorkflowQueue;
  protected abstract readonly handlers: NodeHandlers;

  onApplicationBootstrap(): void {
    const missing = nodesOf(this.queue).filter((n) => !this.handlers[n]);
    if (missing.length) throw new Error(`${this.queue} worker lacks handlers for: ${missing.join(', ')}`);
    this.worker.concurrency = this.config.worker.concurrency;
  }

  process(job: Job<NodeJobData>): Promise<RunOutcome> {
    return this.runner.run(job, this.handlers, this.queue);
  }
}

/**
 * BullMQ renews a job's lock every `lockDuration / 2` while it runs, so this bounds how long a
 * dead worker's job waits before it is re-delivered, not how long a node may run. It stays well
 * above the slowest event-loop stall we expect (a long LLM stream parse).
 */
export const WORKER_OPTIONS = { lockDuration: 60_000, stalledInterval: 15_000, maxStalledCount: 2 } as const;
