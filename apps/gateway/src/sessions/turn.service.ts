import { targetProfile } from '@nl2p/engine';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import {
  glossaryResolutions,
  newSessionEnvelope,
  type Envelope,
  type SessionEvent,
  type TargetKind,
  type UserInput,
} from '@nl2p/envelope';
import { preTurn } from '@nl2p/graph';
import { countTurnEnd } from '@nl2p/metrics';
import { SESSION_STORE, TurnControl, WorkflowDispatcher } from '@nl2p/workflow-runtime';
import { EventHub, EventLog, ExampleStore, GlossaryStore, TraceLog, type SessionStore } from '@nl2p/session-store';
import { context, trace, type Span } from '@opentelemetry/api';
import { extractCarrier, failSpan, injectCarrier, tracer, type TraceCarrier } from '@nl2p/telemetry';
import { earlierQuestions } from '../examples/similar-request';
import type { CreateSessionDto, TurnDto } from './dto';

/** How often a waiting turn asks the checkpoint whether the turn is over, in case its end was missed. */
const QUIET_CHECK_MS = 5_000;
/** How many of the tenant's closest confirmed questions a turn carries (to reuse a plan of, and as a model's examples). */
const CLOSE_EXAMPLES = 5;
/** How often a waiting turn looks at its deadline and its quiet time. */
const WAIT_TICK_MS = 250;

/** What a turn starts from (see {@link TurnService.readForTurn}). */
export interface TurnStartRead {
  current: Envelope;
  fromTurnEndId: string;
}

/** Sessions and turns: the gateway's side of the workflow (it runs `pre_turn` itself). */
@Injectable()
export class TurnService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly events: EventLog,
    private readonly hub: EventHub,
    private readonly traces: TraceLog,
    private readonly dispatcher: WorkflowDispatcher,
    private readonly control: TurnControl,
    private readonly glossary: GlossaryStore,
    private readonly examples: ExampleStore,
  ) {}

  async createSession(dto: CreateSessionDto, tenant: string): Promise<Envelope> {
    const target = dto.sources === 'all' ? this.sourcesTarget(dto) : (dto.target ?? this.config.target);
    const profile = targetProfile(target);
    // Over all sources, the target's own connection is not used: each source has its own.
    if (!dto.sources && !profile.configured(this.config)) {
      const hint = profile.enabledBy ? ` (${profile.enabledBy} is unset)` : '';
      throw new BadRequestException(`target ${target} is not configured on this server${hint}`);
    }
    const envelope = newSessionEnvelope({
      sessionId: randomUUID().replaceAll('-', ''),
      tenant,
      target,
      sources: dto.sources ?? null,
      maxAttempts: dto.max_attempts ?? this.config.workflow.maxAttempts,
      sink: dto.sink ? { type: dto.sink.type, props: dto.sink.props ?? {} } : this.config.sink,
      activeStream: dto.stream ?? null,
      deployment: this.config.deploymentId,
    });
    envelope.pipeline_id = dto.pipeline_id ?? null;
    if (!(await this.store.create(envelope))) throw new ConflictException('session id collision; retry');
    return envelope;
  }

  /**
   * A session over all sources still names one SQL target (its temp ids, its label): the one
   * asked for, else the first source's engine. A streaming target cannot take part.
   */
  private sourcesTarget(dto: CreateSessionDto): TargetKind {
    const sources = this.config.sources.list;
    if (sources.length === 0)
      throw new BadRequestException('sources: no SQL source is configured on this server (SQL_SOURCES)');
    const target = dto.target ?? sources[0].engine;
    if (targetProfile(target).streaming) {
      throw new BadRequestException(`sources: all SQL sources cannot be addressed with the streaming target ${target}`);
    }
    return target;
  }

  /**
   * The session, if `tenant` (when given) owns it. Another tenant's session is "not found",
   * exactly like one that never existed: existence is not disclosed.
   */
  async get(sessionId: string, tenant?: string): Promise<Envelope> {
    const envelope = await this.store.get(sessionId);
    if (!envelope || (tenant !== undefined && envelope.tenant !== tenant)) {
      throw new NotFoundException(`session ${sessionId} not found`);
    }
    return envelope;
  }

  /**
   * What a turn starts from, read in one round trip: the session (as {@link get}; `known` when
   * the caller has it already) and where in the deployment's turn-end stream the turn's end is to
   * be looked for (see {@link waitForTurn}; read before the turn is dispatched, so its end comes
   * after it).
   */
  async readForTurn(sessionId: string, tenant?: string, known?: Envelope): Promise<TurnStartRead> {
    const [current, fromTurnEndId] = await Promise.all([
      known ?? this.get(sessionId, tenant),
      this.events.lastTurnEndId(),
    ]);
    return { current, fromTurnEndId };
  }

  /**
   * Starts a turn: applies `pre_turn`, checkpoints with compare-and-set (so two concurrent turns
   * cannot both start: the loser gets 409) and hands the envelope to the first node's queue.
   * Returns the envelope and where its end is to be looked for (see {@link waitForTurn}). `read`
   * is what the caller read with {@link readForTurn}, if it has (the compare-and-set refuses the
   * session if it has moved on since).
   */
  async startTurn(
    sessionId: string,
    dto: TurnDto,
    parent?: Partial<TraceCarrier>,
    read?: TurnStartRead,
  ): Promise<{ envelope: Envelope; fromTurnEndId: string; span: Span }> {
    // The turn's root span (child of the caller's trace when it sent `traceparent`); its
    // context rides in the envelope so every node span, in every service, descends from it.
    const span = tracer().startSpan('turn', { attributes: { 'nl2p.session_id': sessionId } }, extractCarrier(parent));
    try {
      const started = await this.beginTurn(sessionId, dto, span, read);
      span.setAttribute('nl2p.turn_id', started.envelope.turn_id);
      return { ...started, span };
    } catch (err) {
      failSpan(span, err);
      span.end();
      throw err;
    }
  }

  private async beginTurn(
    sessionId: string,
    dto: TurnDto,
    span: Span,
    read?: TurnStartRead,
  ): Promise<{ envelope: Envelope; fromTurnEndId: string }> {
    const input: UserInput = {
      text: dto.text,
      confirm: dto.confirm,
      feedback: dto.feedback,
      stream: dto.stream,
      ...(dto.sql !== undefined ? { sql: dto.sql } : {}),
    };
    if (
      input.text === undefined &&
      input.confirm === undefined &&
      input.feedback === undefined &&
      input.stream === undefined &&
      input.sql === undefined
    ) {
      throw new BadRequestException('a turn needs one of: text, confirm, feedback, stream, sql');
    }
    const { current, fromTurnEndId } = read ?? (await this.readForTurn(sessionId));
    if (current.status === 'running') throw new ConflictException(`a turn is already running in session ${sessionId}`);

    const decision = preTurn(current, input);
    if (decision.kind === 'reject') throw new BadRequestException(decision.message);
    const traced = { ...decision.envelope, trace: injectCarrier(trace.setSpan(context.active(), span)) };
    // The tenant's glossary as it is now rides with the turn, so an entry taught meanwhile applies.
    const glossary = decision.kind === 'run' ? glossaryResolutions(await this.glossary.list(current.tenant)) : [];
    let next = decision.kind === 'run' ? { ...traced, node: decision.first, glossary } : traced;
    // A new request (not a reply: that is read against its question) is compared with the
    // tenant's confirmed questions, and the closest is shown beside it.
    if (decision.kind === 'run' && input.text !== undefined && next.reply === null && next.request !== null) {
      next = { ...next, ...(await this.earlierQuestions(current, next.request)) };
    }
    // Recovery on resume: a temp pipeline the previous turn recorded but never deleted (it failed
    // or was cancelled) rides along, and the first node's runner deletes it before anything else.
    const leftover = current.validation.tmp_pipeline_id;
    if (leftover && decision.kind === 'run' && !next.validation.tmp_pipeline_id) {
      next = { ...next, validation: { ...next.validation, tmp_pipeline_id: leftover } };
    }
    // `turn_start` (and `turn_end` of a turn that ends at once) go in with the checkpoint, so a
    // failure right after it (a Redis restart) cannot leave a turn without its events.
    const events: SessionEvent[] = [{ type: 'turn_start', turn_id: next.turn_id }];
    if (decision.kind !== 'run') events.push({ type: 'turn_end', turn_id: next.turn_id, status: next.status });
    const conflict = () => new ConflictException(`a turn is already running in session ${sessionId}`);

    if (decision.kind === 'run') {
      // The checkpoint and the first node's job together (one round trip, both or neither).
      const { saved, dispatchError } = await this.dispatcher.checkpointAndDispatch(
        this.store,
        current.version,
        next,
        events,
      );
      if (!saved) throw conflict();
      if (dispatchError) throw dispatchError;
      return { envelope: saved, fromTurnEndId };
    }
    const saved = await this.store.compareAndSet(current.version, next, events);
    if (!saved) throw conflict();
    // A turn that ends at once (a confirmation) ends here, not in a worker.
    countTurnEnd(saved.status);
    await this.keepConfirmed(current, saved);
    if (leftover) {
      await this.dispatcher.scheduleReap({
        session_id: sessionId,
        turn_id: current.turn_id,
        target: current.target,
        tmp_ids: [leftover],
        reason: 'left by an earlier turn',
      });
    }
    return { envelope: saved, fromTurnEndId };
  }

  /**
   * The tenant's confirmed questions beside a new request: the one close enough to show, and the
   * closest few on the session's target, for the `link` node to reuse a plan of (a request that
   * differs only in values) and for a server model to see as examples. A plan confirmed before
   * the glossary last changed is not offered for reuse: a meaning it relied on may have changed.
   */
  private async earlierQuestions(
    current: Envelope,
    request: string,
  ): Promise<Pick<Envelope, 'similar_example' | 'close_examples'>> {
    const [all, glossaryChanged] = await Promise.all([
      this.examples.list(current.tenant),
      this.glossary.lastChange(current.tenant),
    ]);
    const { similar, close } = earlierQuestions(request, all, current.target, CLOSE_EXAMPLES);
    return {
      similar_example: similar,
      close_examples: close.map((x) => ({
        request: x.request,
        sql: x.sql,
        plan: x.confirmed_at > glossaryChanged ? x.plan : null,
        confirmed_at: x.confirmed_at,
      })),
    };
  }

  /** A confirmed request with its SQL (and its plan, in plan mode) becomes one of the tenant's examples. */
  private async keepConfirmed(before: Envelope, after: Envelope): Promise<void> {
    const confirmed = before.interrupt?.type === 'need_confirm' && after.user_input.confirm === true;
    if (!confirmed || after.status !== 'idle' || !before.request || !before.draft.sql) return;
    const plan = before.draft.mode === 'plan' ? before.draft.plan : null;
    await this.examples.add(after.tenant, {
      request: before.request,
      sql: before.draft.sql,
      target: before.target,
      plan,
    });
  }

  /**
   * Cancels the running turn: the checkpoint becomes `cancelled` at once (so a new turn may start
   * right away), the client gets `turn_end` with status `cancelled`, the running node stops at
   * its next boundary (its LLM call is aborted, its result dropped) and the janitor deletes the
   * turn's temp pipelines. 404 without the session, 409 when no turn runs.
   */
  async cancelTurn(sessionId: string): Promise<Envelope> {
    await this.get(sessionId);
    const cancelled = await this.control.cancel(sessionId);
    if (cancelled) return cancelled;
    const now = await this.get(sessionId);
    throw new ConflictException(`no turn is running in session ${sessionId} (status ${now.status})`);
  }

  /**
   * Holds until the turn ends (an interrupt or its end) or the deadline passes; returns the
   * session. It follows the deployment's turn-end stream from `fromTurnEndId` (see
   * {@link startTurn}), so it wakes once, when the turn ends, not at each of its events.
   */
  async waitForTurn(sessionId: string, turnId: number, fromTurnEndId: string, timeoutMs?: number): Promise<Envelope> {
    const deadline = Date.now() + (timeoutMs ?? this.config.gateway.turnWaitTimeoutMs);
    await new Promise<void>((resolve, reject) => {
      let lastCheck = Date.now();
      let settled = false;
      const settle = (err?: unknown) => {
        if (settled) return;
        settled = true;
        clearInterval(timer);
        subscription.close();
        if (err === undefined) resolve();
        else reject(err instanceof Error ? err : new Error('following the turn failed', { cause: err }));
      };
      const subscription = this.hub.subscribeTurnEnds(sessionId, fromTurnEndId, {
        // A later turn's end means this one ended too: a turn starts only once the last has ended.
        onEvents: (batch) => {
          if (batch.some((b) => b.event.type === 'turn_end' && b.event.turn_id >= turnId)) settle();
        },
        onError: settle,
      });
      let checking = false;
      const timer = setInterval(() => {
        if (Date.now() >= deadline) return settle();
        if (checking || Date.now() - lastCheck < QUIET_CHECK_MS) return;
        // Now and then the checkpoint decides, so a missed end (the stream trimmed past it) cannot
        // make the turn wait forever. A checkpoint that ends the turn is written in one step with
        // the turn's last trace record and `turn_end`, so the answer includes them.
        checking = true;
        lastCheck = Date.now();
        this.get(sessionId)
          .then((now) => {
            if (now.turn_id !== turnId || now.status !== 'running') settle();
          })
          .catch(settle)
          .finally(() => (checking = false));
      }, WAIT_TICK_MS);
    });
    return this.get(sessionId);
  }

  /** The tenant's own sessions, newest first, one page at a time. */
  listSessions(tenant: string, limit: number, cursor?: string) {
    return this.store.listForTenant(tenant, limit, cursor ?? null);
  }

  /**
   * Deletes a session with its events and trace. A running turn is cancelled first, so its temp
   * pipelines are reaped as for any cancel and its workers drop their late results.
   */
  async deleteSession(sessionId: string): Promise<void> {
    const current = await this.get(sessionId);
    if (current.status === 'running') await this.control.cancel(sessionId);
    await this.store.delete(sessionId);
  }

  trace(sessionId: string, turnId?: number) {
    return this.traces.list(sessionId, turnId);
  }
}
