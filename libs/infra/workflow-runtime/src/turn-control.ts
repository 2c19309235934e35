import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Envelope, NodeName, SessionEvent } from '@nl2p/envelope';
import { remember, tmpPipelinesOf } from '@nl2p/graph';
import { countTurnEnd } from '@nl2p/metrics';
import type { SessionStore } from '@nl2p/session-store';
import { WorkflowDispatcher } from './dispatcher';
import { deleteTmpPipeline } from './tmp-pipelines';
import { SESSION_STORE, TMP_PIPELINES, type TmpPipelineLedger } from './tokens';

/**
 * Which checkpoint the caller means to end: exactly this version (nobody moved the turn since the
 * caller looked), or wherever this node and attempt stand (a job whose processor never ran).
 */
export type TurnPosition = { version: number } | { node: NodeName; attempt: number } | { anywhere: true };

/**
 * Ends running turns from outside the normal flow: a node that failed for good, a turn stuck past
 * its deadline, a cancellation. The checkpoint changes first (compare-and-set, so a node finishing
 * at the same moment loses and drops its result), then the client sees an `error` (failures) and
 * `turn_end`, then the turn's temp pipelines are deleted: directly where an engine is at hand,
 * otherwise by the janitor.
 */
@Injectable()
export class TurnControl {
  private readonly logger = new Logger(TurnControl.name);

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly dispatcher: WorkflowDispatcher,
    @Optional() @Inject(TMP_PIPELINES) private readonly tmpPipelines?: TmpPipelineLedger,
  ) {}

  /** Ends the turn as `failed` with a clear error event; false when it was not running there. */
  async fail(sessionId: string, turnId: number, at: TurnPosition, node: NodeName | null, message: string) {
    return this.end(sessionId, turnId, at, (current) =>
      remember({ ...current, status: 'failed', error: { node, message } }, 'assistant', `error: ${message}`),
    );
  }

  /** Cancels the running turn (any position); resolves with the stored envelope or null. */
  async cancel(sessionId: string): Promise<Envelope | null> {
    const current = await this.store.get(sessionId);
    if (!current || current.status !== 'running') return null;
    // Wherever the turn stands: a node checkpointing at the same moment only makes us retry.
    return this.end(sessionId, current.turn_id, { anywhere: true }, (c) =>
      remember({ ...c, status: 'cancelled', interrupt: null, error: null }, 'assistant', 'cancelled'),
    );
  }

  private async end(
    sessionId: string,
    turnId: number,
    at: TurnPosition,
    change: (current: Envelope) => Envelope,
  ): Promise<Envelope | null> {
    for (let i = 0; i < 5; i++) {
      const current = await this.store.get(sessionId);
      if (!current || current.turn_id !== turnId || current.status !== 'running' || !isAt(current, at)) return null;
      const changed = change(current);
      const saved = await this.store.compareAndSet(current.version, changed, turnEndEvents(changed));
      if (!saved) {
        // Someone moved first. With an exact version that is final; a node position may still hold.
        if ('version' in at) return null;
        continue;
      }
      countTurnEnd(saved.status);
      await this.releaseTmpPipelines(saved, saved.status);
      return saved;
    }
    return null;
  }

  /**
   * Deletes the temp pipelines an ended turn may have left. With the ledger here it deletes them now
   * and clears the record; what it cannot delete (engine down) goes to the janitor.
   */
  async releaseTmpPipelines(ended: Envelope, reason: string): Promise<void> {
    const ids = tmpPipelinesOf(ended);
    if (!ids.length) return;
    let left = ids;
    if (this.tmpPipelines) {
      left = [];
      for (const id of ids) {
        const deleted = await deleteTmpPipeline(
          this.tmpPipelines,
          this.logger,
          ended,
          id,
          'temp pipeline not deleted; left to the janitor',
        );
        if (!deleted) left.push(id);
      }
      if (!left.length && ended.validation.tmp_pipeline_id) {
        // Best effort: a newer checkpoint (a new turn) already supersedes this record.
        await this.store.compareAndSet(ended.version, {
          ...ended,
          validation: { ...ended.validation, tmp_pipeline_id: null },
        });
      }
    }
    if (left.length) {
      await this.dispatcher.scheduleReap({
        session_id: ended.session_id,
        turn_id: ended.turn_id,
        target: ended.target,
        tmp_ids: left,
        reason,
      });
    }
  }
}

/**
 * What the client sees when a turn stops, by how it stopped: the interrupt (waiting) or the error
 * (failed), then `turn_end`. Appended once per turn, with the checkpoint that stops it.
 */
export function turnEndEvents(e: Envelope): SessionEvent[] {
  const out: SessionEvent[] = [];
  if (e.status === 'waiting' && e.interrupt)
    out.push({ type: 'interrupt', turn_id: e.turn_id, interrupt: e.interrupt });
  if (e.status === 'failed' && e.error) {
    out.push({
      type: 'error',
      turn_id: e.turn_id,
      node: (e.error.node as NodeName | null) ?? null,
      message: e.error.message,
    });
  }
  out.push({ type: 'turn_end', turn_id: e.turn_id, status: e.status });
  return out;
}

function isAt(current: Envelope, at: TurnPosition): boolean {
  if ('anywhere' in at) return true;
  if ('version' in at) return current.version === at.version;
  return current.node === at.node && current.validation.attempt === at.attempt;
}
