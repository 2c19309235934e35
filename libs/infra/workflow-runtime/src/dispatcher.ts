import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Job, type JobsOptions, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { z } from 'zod';
import { Envelope, jobId, type SessionEvent } from '@nl2p/envelope';
import { GRAPH, JanitorJob, QueueName, type ReapJobData } from '@nl2p/graph';
import {
  RedisSessionStore,
  multiWithCompareAndSet,
  type CheckpointExtras,
  type PreparedCheckpoint,
  type SessionStore,
} from '@nl2p/session-store';

/**
 * Where the turn stood when a job was queued: enough to tell a stale job (turn, node, attempt,
 * version), to delete a temp pipeline it may have made, and to join the turn's trace. The node
 * runs on the checkpoint, never on a copy in the job, so the job does not carry the envelope's
 * kilobytes through BullMQ (written on add, read back on every delivery, parsed twice).
 */
export const JobAddress = Envelope.pick({
  session_id: true,
  turn_id: true,
  node: true,
  version: true,
  status: true,
  target: true,
  deployment: true,
  trace: true,
}).extend({ validation: Envelope.shape.validation.pick({ attempt: true }) });
export type JobAddress = z.infer<typeof JobAddress>;

export function jobAddress(e: Envelope): JobAddress {
  return {
    session_id: e.session_id,
    turn_id: e.turn_id,
    node: e.node,
    version: e.version,
    status: e.status,
    target: e.target,
    deployment: e.deployment,
    trace: e.trace,
    validation: { attempt: e.validation.attempt },
  };
}

/** What every workflow job carries: the address of the checkpoint it runs one node on. */
export interface NodeJobData {
  envelope: JobAddress;
  /**
   * Deliveries the node had before this job: a run on in another node's job that failed (see
   * NodeRunner.run) hands the node to its own job with the retries its policy has left.
   */
  deliveries_before?: number;
}

/** A node handed on to its own job after `deliveriesBefore` failed deliveries elsewhere. */
export interface HandOn {
  deliveriesBefore: number;
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

  async dispatch(envelope: Envelope, handOn?: HandOn): Promise<void> {
    const { queue, node, data, opts } = this.jobFor(envelope, handOn);
    await queue.add(node, data, opts);
  }

  /**
   * Checkpoints and queues the node the checkpoint addresses in one MULTI on the queue's
   * connection: one round trip, and both or neither (no checkpoint whose next node was never
   * queued). `saved` is null when the compare-and-set lost; the job is queued all the same and is
   * either the winner's own (de-duplicated by its id) or dropped as stale when it runs.
   * `dispatchError`: the checkpoint moved on but BullMQ refused the job.
   */
  async checkpointAndDispatch(
    store: SessionStore,
    expected: number,
    next: Envelope,
    events: SessionEvent[] = [],
    extras: CheckpointExtras = {},
  ): Promise<{ saved: Envelope | null; dispatchError?: Error }> {
    if (store instanceof RedisSessionStore) {
      return this.inOneTransaction(store.prepareCompareAndSet(expected, next, events, extras));
    }
    // Another store: one after the other (redispatchIfOrphaned covers a crash in between).
    const saved = await store.compareAndSet(expected, next, events, extras);
    if (!saved) return { saved };
    try {
      await this.dispatch(saved);
      return { saved };
    } catch (err) {
      return { saved, dispatchError: err instanceof Error ? err : new Error(String(err)) };
    }
  }

  private async inOneTransaction(
    prepared: PreparedCheckpoint,
  ): Promise<{ saved: Envelope | null; dispatchError?: Error }> {
    const { queue, node, data, opts } = this.jobFor(prepared.stored);
    // BullMQ's connection (a proxy over ioredis) takes our script beside its own.
    const connection = (await queue.backend.client) as unknown as Redis;
    const multi = multiWithCompareAndSet(connection, prepared);
    const job = new Job(queue, node, data, opts, opts.jobId);
    await job.addJob(multi as unknown as Parameters<Job['addJob']>[0]);
    const results = await multi.exec();
    if (!results) throw new Error('checkpoint and dispatch: the transaction was discarded');
    const [[casError, won], [addError]] = results as [[Error | null, unknown], [Error | null, unknown]];
    if (casError) throw casError;
    if (won !== 1) return { saved: null };
    return addError ? { saved: prepared.stored, dispatchError: addError } : { saved: prepared.stored };
  }

  private jobFor(envelope: Envelope, handOn?: HandOn) {
    const node = envelope.node;
    if (!node) throw new Error(`envelope of session ${envelope.session_id} is addressed to no node`);
    const spec = GRAPH[node];
    const backoff = Math.round(spec.jobOptions.backoffMs * this.config.worker.backoffFactor);
    const before = handOn?.deliveriesBefore ?? 0;
    // A handed-on node waits as BullMQ's exponential backoff would have before its next delivery.
    const delay = before > 0 && backoff > 0 ? backoff * 2 ** (before - 1) : undefined;
    const data: NodeJobData = { envelope: jobAddress(envelope), ...(before > 0 ? { deliveries_before: before } : {}) };
    return {
      queue: this.queue(spec.queue),
      node,
      data,
      opts: {
        jobId: jobId(envelope.session_id, envelope.turn_id, node, envelope.validation.attempt),
        attempts: Math.max(1, spec.jobOptions.attempts - before),
        ...(delay ? { delay } : {}),
        backoff: backoff > 0 ? { type: 'exponential', delay: backoff } : undefined,
        // A finished job is not kept to de-duplicate a late re-dispatch of its id: the checkpoint
        // does that (a job whose turn, node, attempt or version the checkpoint has moved past is
        // dropped as stale), and a queued or running twin is still de-duplicated by BullMQ.
        // Failed jobs stay a day, for the post-mortem.
        removeOnComplete: true,
        removeOnFail: { age: 24 * 3_600, count: 1_000 },
      } satisfies JobsOptions,
    };
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
