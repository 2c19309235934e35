import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import { dryRunIdOf, tmpPipelineIdOf, type Envelope, type NodeName, type SessionEvent } from '@nl2p/envelope';
import { END, GRAPH, TMP_PIPELINE_NODES, ownsTmpPipeline, remember } from '@nl2p/graph';
import { EventLog, TraceLog, type NodeTraceRecord, type SessionStore } from '@nl2p/session-store';
import type { Span } from '@opentelemetry/api';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { emptyCallLog, extractCarrier, failSpan, runWithCallLog, tracer, type CallLog } from '@nl2p/telemetry';
import { countTurnEnd } from '@nl2p/metrics';
import { JobAddress, WorkflowDispatcher, type NodeJobData } from './dispatcher';
import { startNodeRunMeasure } from './node-metrics';
import { SupersededError, describeFailure, errorMessage, isRetryable, redact } from './failures';
import { deleteTmpPipeline } from './tmp-pipelines';
import { SESSION_STORE, TMP_PIPELINES, type TmpPipelineLedger } from './tokens';
import { TurnControl, turnEndEvents, type TurnPosition } from './turn-control';

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
export type NodeEvent = DistributiveOmit<SessionEvent, 'turn_id'>;

/** What a node handler may do besides returning the next envelope. */
export interface NodeRunContext {
  /** Appends an event (e.g. an LLM delta) to the session's stream for live clients. */
  emit(event: NodeEvent): Promise<void>;
  /**
   * Aborted when the turn is cancelled or otherwise moved on while this node runs; pass it to
   * long calls (the LLM) so they stop at once instead of at the node's end.
   */
  signal: AbortSignal;
  /**
   * Checkpoints `envelope` (still addressed to this node) before a side effect, e.g. the temp
   * pipeline id before creating it, so a crash right after the side effect is recoverable: a
   * re-delivered job resumes from this checkpoint. Resolves with the stored envelope; throws
   * {@link SupersededError} when someone else moved the turn.
   */
  checkpoint(envelope: Envelope): Promise<Envelope>;
}

/** A node's logic: envelope in, new envelope out. No BullMQ types, so it unit-tests plainly. */
export type NodeHandler = (envelope: Envelope, ctx: NodeRunContext) => Promise<Envelope>;
export type NodeHandlers = Partial<Record<NodeName, NodeHandler>>;

export type RunOutcome = 'advanced' | 'stale' | 'failed';

/**
 * Which delivery a node run is: of its own job, or (run on in the job of the node before it, see
 * {@link NodeRunner.run}) the first of its own policy. `before` counts deliveries a handed-on job
 * inherits from the run that failed in another node's job.
 */
interface Delivery {
  made: number;
  attempts: number;
  before: number;
}

/** How a node run ended, and the checkpoint to run on in the same job, if any. */
interface NodeRunResult {
  outcome: RunOutcome;
  carry: Envelope | null;
}

/** A node run whose checkpoint was loaded: what it runs on and with. */
interface LoadedRun {
  input: Envelope;
  node: NodeName;
  handler: NonNullable<NodeHandlers[NodeName]>;
  deliveryNo: number;
}

/** What a node's handler produced, and what its end is recorded with. */
interface ExecutedRun {
  produced: Envelope;
  /** The checkpoint version the result replaces (moved by mid-node checkpoints). */
  expected: number;
  started: Date;
  calls: ReturnType<typeof emptyCallLog>;
  log: { session_id: string; turn_id: number; node: NodeName; attempt: number };
}

/** At most this many node runs in one job; the next goes through its queue. */
export const MAX_NODES_PER_JOB = 8;

/** A run on in another node's job failed but may be retried: its own job now has it. */
class HandedOn extends Error {
  constructor(readonly failure: unknown) {
    super(errorMessage(failure));
  }
}

/** How often a running node checks whether its turn was cancelled or moved on. */
export const SUPERSEDE_POLL_MS = 500;

/**
 * Runs one workflow job: drops stale envelopes, runs the node, checkpoints with
 * compare-and-set, records the trace, and hands the result to the next node's queue.
 *
 * Delivery is at least once (a worker that dies mid-job has its job re-delivered), so:
 * - a job whose checkpoint moved on is dropped (and its successor re-dispatched if the dead
 *   worker never did), and a temp pipeline it may have created that nobody owns is deleted;
 * - a re-delivered job whose node checkpointed mid-way resumes from that checkpoint;
 * - a node failing for good, in whatever way, ends the turn with an error event.
 */
@Injectable()
export class NodeRunner {
  private readonly logger = new Logger(NodeRunner.name);
  private readonly secrets: string[];

  constructor(
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly events: EventLog,
    private readonly traces: TraceLog,
    private readonly dispatcher: WorkflowDispatcher,
    private readonly turns: TurnControl,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(TMP_PIPELINES) private readonly tmpPipelines?: TmpPipelineLedger,
  ) {
    this.secrets = [config.llm.apiKey];
  }

  /**
   * One span per node run, a child of the gateway's turn span (its context rides in the
   * envelope), so a turn is one trace across every service it touches.
   */
  async run(job: Job<NodeJobData>, handlers: NodeHandlers, service: string): Promise<RunOutcome> {
    // A node whose successor runs on this service runs it on in the same job: no queue hop, no
    // re-read of the checkpoint it just wrote. Each run still has its span, events, trace record
    // and compare-and-set checkpoint, so a crash mid-way re-delivers this job, which finds the
    // checkpoint moved on and hands it to the successor's own queue (redispatchIfOrphaned).
    let carried: Envelope | null = null;
    for (let runs = 1; ; runs++) {
      const { outcome, carry } = await this.runTraced(job, handlers, service, carried, runs < MAX_NODES_PER_JOB);
      if (!carry) return outcome;
      carried = carry;
    }
  }

  private runTraced(
    job: Job<NodeJobData>,
    handlers: NodeHandlers,
    service: string,
    carried: Envelope | null,
    mayCarry: boolean,
  ): Promise<NodeRunResult> {
    const data = job.data as Partial<NodeJobData> | undefined;
    const addressed = carried ?? data?.envelope;
    const parent = extractCarrier(addressed?.trace);
    const name = `node ${addressed?.node ?? 'unknown'}`;
    const delivery = carried ? ownFirstDelivery(carried) : jobDelivery(job);
    const measured = startNodeRunMeasure({ attemptsMade: delivery.made, opts: delivery }, addressed?.node);
    return tracer().startActiveSpan(name, {}, parent, async (span): Promise<NodeRunResult> => {
      try {
        const result = await this.runNode(job, handlers, service, span, carried, delivery, mayCarry);
        span.setAttribute('nl2p.outcome', result.outcome);
        measured({ outcome: result.outcome });
        return result;
      } catch (err) {
        const failure = err instanceof HandedOn ? err.failure : err;
        failSpan(span, failure);
        measured({ error: failure });
        // This job's own node advanced; the failed successor is retried in its own job.
        if (err instanceof HandedOn) return { outcome: 'advanced', carry: null };
        throw err;
      } finally {
        span.end();
      }
    });
  }

  /** One node run: load its checkpoint, execute its handler, advance the turn. */
  private async runNode(
    job: Job<NodeJobData>,
    handlers: NodeHandlers,
    service: string,
    span: Span,
    carried: Envelope | null,
    delivery: Delivery,
    mayCarry: boolean,
  ): Promise<NodeRunResult> {
    const loaded = await this.load(job, handlers, service, span, carried, delivery);
    if (!loaded) return { outcome: 'stale', carry: null };
    const executed = await this.execute(loaded, service, carried, delivery);
    if (!executed) return { outcome: 'stale', carry: null };
    return this.advance(job, handlers, service, span, loaded, executed, mayCarry);
  }

  /**
   * Load: the checkpoint this job resumes (a carried envelope is the one this job's previous run
   * has just written), or null when the turn moved on, after re-dispatching an orphaned successor
   * and deleting a temp pipeline nobody owns.
   */
  private async load(
    job: Job<NodeJobData>,
    handlers: NodeHandlers,
    service: string,
    span: Span,
    carried: Envelope | null,
    delivery: Delivery,
  ): Promise<LoadedRun | null> {
    const envelope = carried ?? this.parse(job);
    const deliveryNo = delivery.before + delivery.made + 1;
    span.setAttributes({
      'nl2p.node': envelope.node ?? '',
      'nl2p.attempt': envelope.validation.attempt,
      'nl2p.delivery': deliveryNo,
      'nl2p.session_id': envelope.session_id,
      'nl2p.turn_id': envelope.turn_id,
    });
    const node = envelope.node as NodeName;
    const handler = handlers[node];
    if (!handler) throw new UnrecoverableError(`service ${service} has no handler for node ${node}`);

    const current = carried ?? (await this.store.get(envelope.session_id));
    if (!current || !resumes(envelope, current)) {
      await this.redispatchIfOrphaned(envelope, current);
      await this.reapUnowned(envelope, this.attemptTmpIds(envelope));
      return null;
    }
    // The checkpoint is the truth: it may hold what this node checkpointed before a crash.
    const input = await this.releaseForeignTmp(current);
    return { input, node, handler, deliveryNo };
  }

  /**
   * Execute: the node's handler on the loaded checkpoint, with its events, mid-node checkpoints
   * and the supersede watch. Null when the turn was cancelled or moved on meanwhile; a failure
   * ends the turn when no delivery is left, else is thrown for BullMQ to retry (or, for a run on
   * in another node's job, handed to the node's own job).
   */
  private async execute(
    loaded: LoadedRun,
    service: string,
    carried: Envelope | null,
    delivery: Delivery,
  ): Promise<ExecutedRun | null> {
    const { input, node, handler, deliveryNo } = loaded;
    const log = { session_id: input.session_id, turn_id: input.turn_id, node, attempt: input.validation.attempt };
    const run = { expected: input.version, checkpointing: false };
    const emit = (event: NodeEvent) => this.emit(input, event);
    // Sent now but awaited only before the node's end is recorded: its round trip overlaps the
    // node's work, and the one connection keeps the order (it lands before anything the node
    // emits or checkpoints). A run on in its predecessor's job was announced by the checkpoint
    // that handed it the turn (see advance).
    const announced: Promise<{ err: Error } | null> = carried
      ? Promise.resolve(null)
      : emit(nodeStart(node, input)).then(
          () => null,
          (err: unknown) => ({ err: err instanceof Error ? err : new Error(String(err)) }),
        );
    const started = new Date();
    const calls = emptyCallLog();
    const controller = new AbortController();
    const stopWatch = this.watchForSupersede(input.session_id, run, controller);
    let produced: Envelope;
    try {
      produced = await runWithCallLog(calls, () =>
        handler(input, {
          emit,
          signal: controller.signal,
          checkpoint: async (next) => {
            run.checkpointing = true;
            try {
              const saved = await this.store.compareAndSet(run.expected, { ...next, node, status: 'running' });
              if (!saved) throw new SupersededError(`session ${input.session_id} moved on while ${node} ran`);
              run.expected = saved.version;
              return saved;
            } finally {
              run.checkpointing = false;
            }
          },
        }),
      );
    } catch (err) {
      stopWatch();
      await announced;
      if (controller.signal.aborted || err instanceof SupersededError) {
        this.logger.log({ msg: 'node stopped: the turn was cancelled or moved on', ...log });
        await this.finishNode(
          input,
          service,
          deliveryNo,
          started,
          calls,
          'stopped: the turn was cancelled or moved on',
        );
        await this.reapUnowned(input, this.attemptTmpIds(input));
        return null;
      }
      const final = !isRetryable(err) || delivery.made + 1 >= delivery.attempts;
      const message = describeFailure(node, err, this.secrets);
      this.logger.warn({ msg: 'node failed', ...log, delivery: deliveryNo, final, error: message });
      await this.finishNode(input, service, deliveryNo, started, calls, redact(errorMessage(err), this.secrets));
      if (final) {
        await this.failTurn(input, { version: run.expected }, node, message);
        // Not worth another delivery: the turn has ended.
        throw err instanceof UnrecoverableError ? err : new UnrecoverableError(message);
      }
      if (carried) {
        // Run on in another node's job: its own job takes the retries its policy has left.
        await this.dispatcher.dispatch(input, { deliveriesBefore: deliveryNo });
        throw new HandedOn(err);
      }
      throw err;
    }
    stopWatch();
    const unannounced = await announced;
    if (unannounced) throw unannounced.err;
    return { produced, expected: run.expected, started, calls, log };
  }

  /**
   * Advance: the node's result checkpointed with compare-and-set together with its end event and
   * trace record, and the next node queued in the same transaction (or run on in this job, or the
   * turn concluded). A lost compare-and-set drops the result as stale.
   */
  private async advance(
    job: Job<NodeJobData>,
    handlers: NodeHandlers,
    service: string,
    span: Span,
    { input, node, deliveryNo }: LoadedRun,
    { produced, expected, started, calls, log }: ExecutedRun,
    mayCarry: boolean,
  ): Promise<NodeRunResult> {
    const next = GRAPH[node].next(produced);
    span.setAttribute('nl2p.next', next);
    if (this.config.telemetry.captureContent && produced.draft.sql) span.setAttribute('nl2p.sql', produced.draft.sql);
    const withMetrics = addCallMetrics(produced, calls);
    const candidate: Envelope =
      next === END ? concludeTurn(withMetrics, node) : { ...withMetrics, node: next, status: 'running' };
    // The node's end event and trace record go in with the checkpoint (one round trip), the
    // event before the turn's end, so the client sees it first.
    const ended = this.nodeEnd(input, service, deliveryNo, started, calls, null);
    const carryOn = next !== END && mayCarry && !!handlers[next] && GRAPH[next].queue === GRAPH[node].queue;
    const events: SessionEvent[] = [{ ...ended.event, turn_id: input.turn_id }];
    // A successor run on in this job starts right after this checkpoint: its `node_start` goes in
    // with it (one write fewer; after a crash in between, its own job announces it again).
    if (carryOn) events.push({ ...nodeStart(next, candidate), turn_id: input.turn_id });
    const extras = { events, trace: ended.trace };
    let saved: Envelope | null;
    let dispatchError: Error | undefined;
    if (next === END || carryOn) {
      saved = await this.store.compareAndSet(
        expected,
        candidate,
        next === END ? turnEndEvents(candidate) : undefined,
        extras,
      );
    } else {
      ({ saved, dispatchError } = await this.dispatcher.checkpointAndDispatch(
        this.store,
        expected,
        candidate,
        [],
        extras,
      ));
    }
    if (!saved) {
      // Someone moved the session on while this node ran (a cancel, a re-delivered twin). The
      // run is still recorded, as it ran.
      await this.record(input, ended);
      this.logger.warn({ msg: 'checkpoint lost compare-and-set; result dropped', ...log });
      await this.reapUnowned(input, [
        ...this.attemptTmpIds(input),
        ...(produced.validation.tmp_pipeline_id ? [produced.validation.tmp_pipeline_id] : []),
      ]);
      return { outcome: 'stale', carry: null };
    }
    if (next === END) {
      countTurnEnd(saved.status);
      return { outcome: 'advanced', carry: null };
    }
    if (carryOn) return { outcome: 'advanced', carry: saved };
    if (dispatchError) {
      // The checkpoint moved on but the next node is not queued. Another delivery of this job
      // re-dispatches it (see redispatchIfOrphaned); after the last one, end the turn.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.failTurn(
          saved,
          { version: saved.version },
          node,
          describeFailure(node, dispatchError, this.secrets),
        );
      }
      throw dispatchError;
    }
    return { outcome: 'advanced', carry: null };
  }

  /**
   * A job failed for good. The processor's own handling ended the turn already when it ran; this
   * covers jobs BullMQ failed without running them (stalled too often: their worker kept dying).
   */
  async onJobFailed(job: Job<NodeJobData>, err: Error): Promise<void> {
    // `finishedOn` is set only when BullMQ gives up on the job (no retry left).
    const final = (typeof job.finishedOn === 'number' && job.finishedOn > 0) || err.name === 'UnrecoverableError';
    if (!final) return;
    const parsed = JobAddress.safeParse(job.data?.envelope);
    if (!parsed.success) return;
    const envelope = parsed.data;
    if (!envelope.node) return;
    const reason = /stalled|started more than/i.test(err.message)
      ? `the worker running it stopped again and again (${err.message})`
      : err.message;
    await this.failTurn(
      envelope,
      { node: envelope.node, attempt: envelope.validation.attempt },
      envelope.node,
      redact(`${envelope.node}: ${reason}`, this.secrets),
    );
  }

  /** Ends the turn with a clear error the client sees; the session never stays "running". */
  async failTurn(
    envelope: Pick<Envelope, 'session_id' | 'turn_id'>,
    at: TurnPosition,
    node: NodeName | null,
    message: string,
  ): Promise<void> {
    try {
      await this.turns.fail(envelope.session_id, envelope.turn_id, at, node, message);
    } catch (err) {
      // Redis itself is failing; the janitor ends the turn once its deadline passes.
      this.logger.error({
        msg: 'could not end the failed turn',
        session_id: envelope.session_id,
        error: errorMessage(err),
      });
    }
  }

  private parse(job: Job<NodeJobData>): JobAddress {
    const parsed = JobAddress.safeParse(job.data?.envelope);
    // A bad shape never gets better by retrying.
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new UnrecoverableError(`job ${job.id}: invalid envelope: ${issues}`);
    }
    if (!parsed.data.node) throw new UnrecoverableError(`job ${job.id}: envelope is addressed to no node`);
    return parsed.data;
  }

  /**
   * A worker may die after checkpointing but before dispatching the next node. Its job is then
   * re-delivered with the older envelope: instead of running it again, hand the checkpoint on
   * (the deterministic job id makes this a no-op when the dispatch did happen).
   */
  private async redispatchIfOrphaned(envelope: JobAddress, current: Envelope | null): Promise<void> {
    if (
      current &&
      current.status === 'running' &&
      current.turn_id === envelope.turn_id &&
      current.version > envelope.version
    ) {
      await this.dispatcher.dispatch(current);
    }
  }

  /** The temp pipeline this job's node may have created (validate, explain, cleanup only). */
  private attemptTmpIds(e: JobAddress): string[] {
    if (!e.node || !TMP_PIPELINE_NODES.has(e.node)) return [];
    // A dry run lives and dies inside validate, so only a worker killed in it leaves one behind.
    return e.node === 'validate' ? [tmpPipelineIdOf(e), dryRunIdOf(e)] : [tmpPipelineIdOf(e)];
  }

  /** Deletes those of `ids` no in-flight turn owns (read fresh), best effort. */
  private async reapUnowned(e: Pick<Envelope, 'session_id' | 'target'>, ids: string[]): Promise<void> {
    if (!this.tmpPipelines || !ids.length) return;
    const current = await this.store.get(e.session_id);
    for (const id of new Set(ids)) {
      if (ownsTmpPipeline(current, id)) continue;
      await deleteTmpPipeline(
        this.tmpPipelines,
        this.logger,
        e,
        id,
        'could not delete an unowned temp pipeline; the janitor will',
      );
    }
  }

  /**
   * Recovery on resume: a checkpoint recording a temp pipeline this run does not own (left by an
   * earlier turn that failed or was cancelled) gets it deleted before the node runs.
   */
  private async releaseForeignTmp(input: Envelope): Promise<Envelope> {
    const recorded = input.validation.tmp_pipeline_id;
    if (!recorded || this.attemptTmpIds(input).includes(recorded)) return input;
    if (this.tmpPipelines) {
      await deleteTmpPipeline(
        this.tmpPipelines,
        this.logger,
        input,
        recorded,
        'leftover temp pipeline not deleted; the janitor will',
      );
    }
    return { ...input, validation: { ...input.validation, tmp_pipeline_id: null } };
  }

  /**
   * Polls the checkpoint's version while the node runs; a change this run did not make (a
   * cancel, the janitor ending the turn, a twin delivery finishing first) aborts the node's signal.
   */
  private watchForSupersede(
    sessionId: string,
    run: { expected: number; checkpointing: boolean },
    controller: AbortController,
  ): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      const want = run.expected;
      const seen = await this.store.version(sessionId).catch(() => want);
      if (stopped) return;
      if (!run.checkpointing && run.expected === want && seen !== want) {
        controller.abort(new SupersededError(`session ${sessionId} moved on`));
        return;
      }
      timer = setTimeout(() => void tick(), SUPERSEDE_POLL_MS);
    };
    timer = setTimeout(() => void tick(), SUPERSEDE_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  private async finishNode(
    envelope: Envelope,
    service: string,
    delivery: number,
    started: Date,
    calls: CallLog,
    error: string | null,
  ): Promise<void> {
    await this.record(envelope, this.nodeEnd(envelope, service, delivery, started, calls, error));
  }

  /** The `node_end` event and the trace record of a node run that just ended. */
  private nodeEnd(
    envelope: Envelope,
    service: string,
    delivery: number,
    started: Date,
    calls: CallLog,
    error: string | null,
  ): { event: NodeEvent; trace: NodeTraceRecord } {
    const end = new Date();
    const latency = end.getTime() - started.getTime();
    const node = envelope.node as NodeName;
    return {
      event: {
        type: 'node_end',
        node,
        attempt: envelope.validation.attempt,
        ok: error === null,
        latency_ms: latency,
        ...(error ? { error } : {}),
      },
      trace: {
        turn_id: envelope.turn_id,
        node,
        service,
        attempt: envelope.validation.attempt,
        delivery,
        start: started.toISOString(),
        end: end.toISOString(),
        latency_ms: latency,
        ok: error === null,
        error,
        llm: calls.llm,
        engine: calls.engine,
      },
    };
  }

  /** Appends a node run's end event, then its trace record, on their own (outside a checkpoint). */
  private async record(envelope: Envelope, ended: { event: NodeEvent; trace: NodeTraceRecord }): Promise<void> {
    await this.emit(envelope, ended.event);
    await this.traces.append(envelope.session_id, ended.trace);
  }

  private async emit(envelope: Envelope, event: NodeEvent): Promise<void> {
    await this.events.append(envelope.session_id, { ...event, turn_id: envelope.turn_id });
  }
}

/**
 * The job may run against the checkpoint: the turn is still running at this job's node and
 * attempt. The checkpoint may be newer than the job's envelope when the node checkpointed
 * mid-way (before a side effect) and its worker died; the job then resumes from there.
 */
function resumes(job: JobAddress, current: Envelope): boolean {
  return (
    current.status === 'running' &&
    current.turn_id === job.turn_id &&
    current.node === job.node &&
    current.validation.attempt === job.validation.attempt &&
    current.version >= job.version
  );
}

function nodeStart(node: NodeName, envelope: Envelope): NodeEvent {
  return { type: 'node_start', node, attempt: envelope.validation.attempt };
}

/** The turn stops after `node`: waiting on an interrupt, or done. */
function concludeTurn(envelope: Envelope, node: NodeName): Envelope {
  const status = envelope.interrupt ? 'waiting' : 'idle';
  const said = envelope.interrupt?.question ?? envelope.answer?.text ?? envelope.draft.sql ?? 'done';
  return remember({ ...envelope, node, status }, 'assistant', said);
}

function jobDelivery(job: Job<NodeJobData>): Delivery {
  const data = job.data as Partial<NodeJobData> | undefined;
  return { made: job.attemptsMade, attempts: job.opts.attempts ?? 1, before: data?.deliveries_before ?? 0 };
}

function ownFirstDelivery(envelope: Envelope): Delivery {
  return { made: 0, attempts: envelope.node ? GRAPH[envelope.node].jobOptions.attempts : 1, before: 0 };
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
