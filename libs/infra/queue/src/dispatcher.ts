import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { jobId, type Envelope } from '@nl2p/envelope';
import { GRAPH, type WorkflowQueue } from '@nl2p/graph';

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
  private readonly queues = new Map<WorkflowQueue, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  async dispatch(envelope: Envelope): Promise<void> {
    const node = envelope.node;
    if (!node) throw new Error(`envelope of session ${envelope.session_id} is addressed to no node`);
    const spec = GRAPH[node];
    await this.queue(spec.queue).add(
      node,
      { envelope },
      {
        jobId: jobId(envelope.session_id, envelope.turn_id, node, envelope.validation.attempt),
        attempts: spec.jobOptions.attempts,
        backoff: spec.jobOptions.backoffMs > 0 ? { type: 'exponential', delay: spec.jobOptions.backoffMs } : undefined,
        // Keep finished jobs a while so a re-dispatch of the same id is deduplicated.
        removeOnComplete: { age: 3_600, count: 5_000 },
        removeOnFail: { age: 24 * 3_600, count: 5_000 },
      },
    );
  }

  private queue(name: WorkflowQueue): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.queues.set(name, q);
    }
    return q;
  }
}
