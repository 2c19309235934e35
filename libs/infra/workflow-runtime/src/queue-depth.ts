import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName, WORKFLOW_QUEUES } from '@nl2p/graph';
import { registerQueueDepthSource, type QueueDepth } from '@nl2p/metrics';

/** Every queue the services use: the workflow's and the janitor's. */
export const OBSERVED_QUEUES: readonly QueueName[] = [...WORKFLOW_QUEUES, QueueName.Janitor];

/**
 * The jobs a queue holds, by state, from BullMQ's own count. `waiting` is the wait list's length;
 * `prioritized` jobs sit in a sorted set and `delayed` ones (a retry's backoff) in another, so
 * the wait list alone undercounts.
 */
export async function queueDepth(queue: Queue): Promise<QueueDepth> {
  const c = await queue.getJobCounts('wait', 'prioritized', 'delayed', 'active', 'failed');
  return {
    waiting: c.wait ?? 0,
    prioritized: c.prioritized ?? 0,
    delayed: c.delayed ?? 0,
    active: c.active ?? 0,
    failed: c.failed ?? 0,
  };
}

/** Feeds `nl2p_queue_jobs` from this app's queue producers, read at scrape time. */
@Injectable()
export class QueueDepthReporter implements OnModuleInit, OnModuleDestroy {
  private unregister: (() => void) | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    const queues = OBSERVED_QUEUES.map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    this.unregister = registerQueueDepthSource(async () => {
      const depths = await Promise.all(queues.map(queueDepth));
      return Object.fromEntries(queues.map((q, i) => [q.name, depths[i]]));
    });
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }
}
