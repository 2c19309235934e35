import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import {
  EnvelopeValidationError,
  parseEnvelope,
  type Envelope,
  type NodeName,
  type SessionEvent,
} from '@nl2p/envelope';
import { END, GRAPH, remember } from '@nl2p/graph';
import { EventLog, TraceLog, type SessionStore } from '@nl2p/session-store';
import type { Span } from '@opentelemetry/api';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { emptyCallLog, extractCarrier, failSpan, runWithCallLog, tracer, type CallLog } from '@nl2p/telemetry';
import { WorkflowDispatcher, type NodeJobData } from './dispatcher';
import { SESSION_STORE } from './tokens';

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
export type NodeEvent = DistributiveOmit<SessionEvent, 'turn_id'>;

/** What a node handler may do besides returning the next envelope. */
export interface NodeRunContext {
  /** Appends an event (e.g. an LLM delta) to the session's stream for live clients. */
  emit(event: NodeEvent): Promise<void>;
}

/** A node's logic: envelope in, new envelope out. No BullMQ types, so it unit-tests plainly. */
export type NodeHandler = (envelope: Envelope, ctx: NodeRunContext) => Promise<Envelope>;
export type NodeHandlers = Partial<Record<NodeName, NodeHandler>>;

export type RunOutcome = 'advanced' | 'stale' | 'failed';

/**
 * Runs one workflow job: drops stale envelopes, runs the node, checkpoints with
 * compare-and-set, records the trace, and hands the result to the next node's queue.
 */
@Injectable()
export class NodeRunner {
  private readonly logger = new Logger(NodeRunner.name);

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly events: EventLog,
    private readonly traces: TraceLog,
    private readonly dispatcher: WorkflowDispatcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * One span per node run, a child of the gateway's turn span (its context rides in the
   * envelope), so a turn is one trace across every service it touches.
   */
  async run(job: Job<NodeJobData>, handlers: NodeHandlers, service: string): Promise<RunOutcome> {
    const data = job.data as Partial<NodeJobData> | undefined;
    const parent = extractCarrier(data?.envelope?.trace);
    const name = `node ${data?.envelope?.node ?? 'unknown'}`;
    return tracer().startActiveSpan(name, {}, parent, async (span) => {
      try {
        const outcome = await this.runNode(job, handlers, service, span);
        span.setAttribute('nl2p.outcome', outcome);
        return outcome;
      } catch (err) {
        failSpan(span, err);
        throw err;
      } finally {
        span.end();
      }
    });
  }

  private async runNode(job: Job<NodeJobData>, handlers: NodeHandlers, service: string, span: Span): Promise<RunOutcome> {
    const envelope = this.parse(job);
    span.setAttributes({
      'nl2p.node': envelope.node ?? '',
      'nl2p.attempt': envelope.validation.attempt,
      'nl2p.delivery': job.attemptsMade + 1,
      'nl2p.session_id': envelope.session_id,
      'nl2p.turn_id': envelope.turn_id,
    });
    const node = envelope.node as NodeName;
    const handler = handlers[node];
    if (!handler) throw new UnrecoverableError(`service ${service} has no handler for node ${node}`);

    const current = await this.store.get(envelope.session_id);
    if (!current || this.isStale(envelope, current)) {
      await this.redispatchIfOrphaned(envelope, current);
      return 'stale';
    }

    const log = {
      session_id: envelope.session_id,
      turn_id: envelope.turn_id,
      node,
      attempt: envelope.validation.attempt,
    };
    const emit = (event: NodeEvent) => this.emit(envelope, event);
    await emit({ type: 'node_start', node, attempt: envelope.validation.attempt });
    const started = new Date();
    const calls = emptyCallLog();
    let produced: Envelope;
    try {
      produced = await runWithCallLog(calls, () => handler(envelope, { emit }));
    } catch (err) {
      const message = errorMessage(err);
      const final = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      this.logger.warn({ msg: 'node failed', ...log, delivery: job.attemptsMade + 1, final, error: message });
      await this.finishNode(envelope, service, job, started, calls, message);
      if (final) await this.failTurn(envelope, node, message);
      throw err;
    }

    const next = GRAPH[node].next(produced);
    span.setAttribute('nl2p.next', next);
    if (this.config.telemetry.captureContent && produced.draft.sql) span.setAttribute('nl2p.sql', produced.draft.sql);
    const withMetrics = addCallMetrics(produced, calls);
    const candidate: Envelope =
      next === END ? concludeTurn(withMetrics, node) : { ...withMetrics, node: next, status: 'running' };
    const saved = await this.store.compareAndSet(envelope.version, candidate);
    await this.finishNode(envelope, service, job, started, calls, null);
    if (!saved) {
      // Someone moved the session on while this node ran (a cancel, a re-delivered twin).
      this.logger.warn({ msg: 'checkpoint lost compare-and-set; result dropped', ...log });
      return 'stale';
    }
    if (next === END) {
      if (saved.interrupt) await this.emit(saved, { type: 'interrupt', interrupt: saved.interrupt });
      await this.emit(saved, { type: 'turn_end', status: saved.status });
    } else {
      await this.dispatcher.dispatch(saved);
    }
    return 'advanced';
  }

  /** Ends the turn with a clear error the client sees; the session never stays "running". */
  async failTurn(envelope: Envelope, node: NodeName | null, message: string): Promise<void> {
    for (let i = 0; i < 5; i++) {
      const current = await this.store.get(envelope.session_id);
      if (!current || current.turn_id !== envelope.turn_id || current.status !== 'running') return;
      const failed: Envelope = remember(
        { ...current, status: 'failed', error: { node, message } },
        'assistant',
        `error: ${message}`,
      );
      const saved = await this.store.compareAndSet(current.version, failed);
      if (saved) {
        await this.emit(saved, { type: 'error', node, message });
        await this.emit(saved, { type: 'turn_end', status: 'failed' });
        return;
      }
    }
  }

  private parse(job: Job<NodeJobData>): Envelope {
    try {
      const envelope = parseEnvelope(job.data?.envelope);
      if (!envelope.node) throw new EnvelopeValidationError('envelope is addressed to no node');
      return envelope;
    } catch (err) {
      // A bad shape never gets better by retrying.
      throw new UnrecoverableError(`job ${job.id}: ${errorMessage(err)}`);
    }
  }

  private isStale(envelope: Envelope, current: Envelope): boolean {
    return (
      current.version !== envelope.version ||
      current.turn_id !== envelope.turn_id ||
      current.status !== 'running' ||
      current.node !== envelope.node
    );
  }

  /**
   * A worker may die after checkpointing but before dispatching the next node. Its job is then
   * re-delivered with the older envelope: instead of running it again, hand the checkpoint on
   * (the deterministic job id makes this a no-op when the dispatch did happen).
   */
  private async redispatchIfOrphaned(envelope: Envelope, current: Envelope | null): Promise<void> {
    if (
      current &&
      current.status === 'running' &&
      current.turn_id === envelope.turn_id &&
      current.version > envelope.version
    ) {
      await this.dispatcher.dispatch(current);
    }
  }

  private async finishNode(
    envelope: Envelope,
    service: string,
    job: Job,
    started: Date,
    calls: CallLog,
    error: string | null,
  ): Promise<void> {
    const end = new Date();
    const latency = end.getTime() - started.getTime();
    const node = envelope.node as NodeName;
    await this.emit(envelope, {
      type: 'node_end',
      node,
      attempt: envelope.validation.attempt,
      ok: error === null,
      latency_ms: latency,
      ...(error ? { error } : {}),
    });
    await this.traces.append(envelope.session_id, {
      turn_id: envelope.turn_id,
      node,
      service,
      attempt: envelope.validation.attempt,
      delivery: job.attemptsMade + 1,
      start: started.toISOString(),
      end: end.toISOString(),
      latency_ms: latency,
      ok: error === null,
      error,
      llm: calls.llm,
      engine: calls.engine,
    });
  }

  private async emit(envelope: Envelope, event: NodeEvent): Promise<void> {
    await this.events.append(envelope.session_id, { ...event, turn_id: envelope.turn_id });
  }
}

/** The turn stops after `node`: waiting on an interrupt, or done. */
function concludeTurn(envelope: Envelope, node: NodeName): Envelope {
  const status = envelope.interrupt ? 'waiting' : 'idle';
  const said = envelope.interrupt?.question ?? envelope.answer?.text ?? envelope.draft.sql ?? 'done';
  return remember({ ...envelope, node, status }, 'assistant', said);
}

function addCallMetrics(envelope: Envelope, calls: CallLog): Envelope {
  const m = { ...envelope.metrics };
  for (const c of calls.llm) {
    m.llm_calls += 1;
    m.llm_tokens_in += c.input_tokens;
    m.llm_tokens_out += c.output_tokens;
    m.llm_latency_ms += c.latency_ms;
    m.retries += c.retries;
  }
  for (const c of calls.engine) {
    m.engine_calls += 1;
    m.engine_latency_ms += c.latency_ms;
    m.retries += c.retries;
  }
  return { ...envelope, metrics: m };
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
