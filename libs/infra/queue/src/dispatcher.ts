import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { jobId, type Envelope } from '@nl2p/envelope';
import { GRAPH, JanitorJob, QueueName, type ReapJobData } from '@nl2p/graph';

/** What every workflow job carries: the envelope addressed to one node. */
export interface NodeJobData {
  envelope: Envelope;
}

/**
 * Hands an envelope to the queue of the node it is addressed to. The graph says which queue;
 * the job id is deterministic, so handing the same envelope twice enqueues it once.
 */
@Injectable()
export class WorkflowDispatcher {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async dispatch(envelope: Envelope): Promise<void> {
    const node = envelope.node;
    if (!node) throw new Error(`envelope of session ${envelope.session_id} is addressed to no node`);
    const spec = GRAPH[node];
    const backoff = Math.round(spec.jobOptions.backoffMs * this.config.worker.backoffFactor);
    await this.queue(spec.queue).add(
      node,
      { envelope },
      {
        jobId: jobId(envelope.session_id, envelope.turn_id, node, envelope.validation.attempt),
        attempts: spec.jobOptions.attempts,
        backoff: backoff > 0 ? { type: 'exponential', delay: backoff } : undefined,
        // A finished job is not kept to de-duplicate a late re-dispatch of its id: the checkpoint
        // does that (a job whose turn, node, attempt or version the checkpoint has moved past is
        // dropped as stale), and a queued or running twin is still de-duplicated by BullMQ.
        // Failed jobs stay a day, for the post-mortem.
        removeOnComplete: true,
        removeOnFail: { age: 24 * 3_600, count: 1_000 },
      },
    );
  }

  /**
   * Asks the janitor to delete temp pipelines a turn that ended may have left behind. For
   * services without an engine (the gateway) or when a direct delete failed; the janitor
   * retries, and its sweep catches whatever still slips through.
   */
  async scheduleReap(data: ReapJobData): Promise<void> {
    if (!data.tmp_ids.length) return;
    await this.queue(QueueName.Janitor).add(JanitorJob.Reap, data, {
      attempts: 5,
      backoff: { type: 'exponential', delay: Math.max(1, Math.round(2_000 * this.config.worker.backoffFactor)) },
      removeOnComplete: { age: 3_600, count: 1_000 },
      removeOnFail: { age: 24 * 3_600, count: 1_000 },
    });
  }

  private queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.queues.set(name, q);
    }
    return q;
  }
}
