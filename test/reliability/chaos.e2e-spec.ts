import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { TMP_PIPELINE_PREFIX, jobId, type NodeName, type SessionEvent } from '@nl2p/envelope';
import { GRAPH } from '@nl2p/graph';
import { ANSWER_SYSTEM_MARK, DRAFT_SYSTEM_MARK, REVISE_SYSTEM_MARK, ROUTER_SYSTEM_MARK } from '@nl2p/prompts';
import { EventLog, RedisKeys } from '@nl2p/session-store';
import { FakeManager, ScriptedLlm, startMqttBroker, type ScriptedReply, type TestBroker } from '@nl2p/testing';
import { readStats } from '../../apps/janitor/src/janitor.service';
import { OtlpReceiver } from '../support/otlp-receiver';
import { ServiceProcess, freePort, waitForHealth, type ServiceName } from '@nl2p/testing';
import { testEnv } from '../support/stack';
import { RedisServer } from './redis-server';
import { GOOD_SQL, REQUEST, sleep } from './support';
import { splitSources, SOURCES_REQUEST, wrongSourcesAnswer } from '../support/split-sources';

/**
 * The chaos run (issue 4): N conversations at a time through the six services as separate
 * processes, while worker processes are SIGKILLed and restarted at random points and Redis is
 * restarted once. Every fourth conversation is a question over two SQL sources (a DuckDB file and
 * PostgreSQL when POSTGRES_URL is set), answered by parts, a combine and a model-worded sentence.
 * Parameters come from the environment, so `scripts/chaos.sh` runs it bigger:
 *   CHAOS_CONVERSATIONS  conversations in flight at once (default 6)
 *   CHAOS_DURATION_MS    how long new conversations start and processes get killed (default 25 000)
 *   CHAOS_KILL_EVERY_MS  mean time between two kills (default 2 500)
 *   CHAOS_SEED           seed of the kill schedule (default: time-based; printed)
 *   CHAOS_REPORT         also write the result line to this file
 */
const N = Number(process.env.CHAOS_CONVERSATIONS ?? 6);
const DURATION_MS = Number(process.env.CHAOS_DURATION_MS ?? 25_000);
const KILL_EVERY_MS = Number(process.env.CHAOS_KILL_EVERY_MS ?? 2_500);
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);

// Service timings that keep recovery quick: a killed worker's job is re-delivered after its lock
// (LLM_TIMEOUT_MS + 5 s) runs out; a turn with no checkpoint for TURN_DEADLINE_MS is failed.
const LLM_TIMEOUT_MS = 2_000;
const TURN_DEADLINE_MS = 45_000;
const SWEEP_EVERY_MS = 2_000;
/** After the chaos phase: the longest a turn may still take before it counts as hung. */
const DRAIN_MS = TURN_DEADLINE_MS + LLM_TIMEOUT_MS + 5_000 + 2 * SWEEP_EVERY_MS + 10_000;

jest.setTimeout(DURATION_MS + DRAIN_MS + 90_000);

/** Passes local checks, fails in the engine (or locally): the turn needs one repair. */
const REPAIR_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream GROUP BY tumblingwindow('ss', 10)";

type Outcome = 'completed' | 'failed_clear' | 'hung' | 'lost';
interface Conversation {
  n: number;
  repair: boolean;
  /** A question over all SQL sources instead of a veloFlux pipeline. */
  sources: boolean;
  sessionId?: string;
  outcome?: Outcome;
  miscounted?: boolean;
  detail?: string;
  /** Started this long after the chaos began (ms). */
  at?: number;
}

/** Deterministic kill schedule from the seed (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One HTTP call to the gateway that gives up after `timeoutMs` (Redis may be restarting). */
async function call(base: string, method: string, path: string, body?: unknown, timeoutMs = 15_000) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // plain text
  }
  return { status: res.status, body: parsed };
}

describe('chaos: conversations survive killed workers and a Redis restart', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  const otlp = new OtlpReceiver();
  let broker: TestBroker;
  let redis: RedisServer;
  let env: Record<string, string>;
  let gateway: ServiceProcess;
  let workers: ServiceProcess[] = [];
  let base: string;
  const sources = splitSources();
  let expected: [string, number][] = [];

  beforeAll(async () => {
    const [managerUrl, llmUrl, otlpUrl, gatewayPort, redisPort, mqtt] = await Promise.all([
      manager.start(),
      llm.start(),
      otlp.start(),
      freePort(),
      freePort(),
      startMqttBroker(),
    ]);
    broker = mqtt;
    await sources.write();
    expected = await sources.expected();
    redis = new RedisServer(redisPort);
    await redis.start();
    // Every Manager call takes a little while, so kills land in the middle of creates too.
    manager.delayMs = 20;
    llm.handler = answer;
    env = testEnv({
      managerUrl,
      llmUrl,
      env: {
        REDIS_URL: redis.url,
        GATEWAY_PORT: String(gatewayPort),
        LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        LLM_MAX_RETRIES: '2',
        ENGINE_TIMEOUT_MS: '2000',
        ENGINE_RETRIES: '3',
        ENGINE_BACKOFF_MS: '50',
        JOB_BACKOFF_FACTOR: '0.25',
        JANITOR_SWEEP_EVERY_MS: String(SWEEP_EVERY_MS),
        // Candidates run on sample rows as they ship, so kills land inside dry runs too (their
        // windows are longer than this limit: each runs about as long as it allows).
        VELOFLUX_DRY_RUN: 'true',
        VELOFLUX_DRY_RUN_BROKER_URL: broker.url,
        VELOFLUX_DRY_RUN_LIMIT_MS: '2000',
        TURN_DEADLINE_MS: String(TURN_DEADLINE_MS),
        // One tenant (auth off) polling hard: the gateway's limits are not what is tested here.
        RATE_LIMIT_PER_MINUTE: '1000000',
        MAX_CONCURRENT_TURNS_PER_TENANT: '10000',
        LOG_LEVEL: 'warn',
        LOG_JSON: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        // Sessions over all SQL sources: the request is read by the linker, no model drafts.
        SQL_SOURCES: sources.sqlSources,
        ANSWER_WRITER: 'model',
      },
    });
    gateway = new ServiceProcess('gateway', env);
    // Two replicas of the busiest workers and of the janitor, one of the others.
    const layout: ServiceName[] = [
      'router-llm',
      'sql-drafter',
      'sql-drafter',
      'validator',
      'validator',
      'explainer',
      'janitor',
      'janitor',
    ];
    workers = layout.map((name) => new ServiceProcess(name, env));
    for (const p of [gateway, ...workers]) p.start();
    base = `http://127.0.0.1:${gatewayPort}`;
    try {
      await waitForHealth(base, 60_000, [gateway, ...workers]);
    } catch (err) {
      throw new Error(`${String(err)}\ngateway output:\n${gateway.output.slice(-3_000)}`);
    }
  });

  afterAll(async () => {
    await Promise.all([gateway, ...workers].filter(Boolean).map((p) => p.stop('SIGKILL')));
    await Promise.all([manager.stop(), llm.stop(), otlp.stop(), broker?.close()]);
    await redis?.destroy();
    await sources.remove();
  });

  /** The scripted LLM: stateless (a re-delivered job asks again), with latency so kills land mid-call. */
  function answer(req: { messages: { role: string; content: string }[] }): ScriptedReply {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const all = req.messages.map((m) => m.content).join('\n');
    const delayMs = 50 + Math.floor(Math.random() * 550);
    if (system.includes(ROUTER_SYSTEM_MARK)) {
      return { content: JSON.stringify({ intent: 'nl2sql', stream: 'sensor_stream', question: null }), delayMs };
    }
    if (system.includes(DRAFT_SYSTEM_MARK)) {
      // The request itself, not the prompt: earlier confirmed questions of the tenant (few-shot
      // examples, some of them repair conversations) are in the prompt too.
      const request = /<user_request>\n([\s\S]*?)\n<\/user_request>/.exec(all)?.[1] ?? all;
      return { content: request.includes('[repair]') ? REPAIR_SQL : GOOD_SQL, delayMs, chunkDelayMs: 15 };
    }
    if (system.includes(ANSWER_SYSTEM_MARK)) {
      // A sentence with no number: the check keeps it, so kills land in word_answer's call too.
      return { content: 'Each site is listed with its average temperature.', delayMs };
    }
    if (system.includes(REVISE_SYSTEM_MARK)) {
      return { content: JSON.stringify({ sql: GOOD_SQL, questions: [], assumptions: ['repaired'] }), delayMs };
    }
    return { status: 400, headers: { 'x-should-retry': 'false' }, body: 'unexpected prompt' };
  }

  it('started = completed + failed with a clear error; nothing hung, lost, leaked or created twice', async () => {
    const rng = prng(SEED);
    const started = Date.now();
    const chaosEnds = started + DURATION_MS;
    const drainEnds = chaosEnds + DRAIN_MS;
    const conversations: Conversation[] = [];
    let kills = 0;
    let redisRestarts = 0;
    let redisRestartAt = -1;
    const restarts: Promise<void>[] = [];

    /** The session view, retried through outages; null once the session is gone (404). */
    async function view(id: string): Promise<any> {
      for (;;) {
        try {
          const res = await call(base, 'GET', `/v1/sessions/${id}`);
          if (res.status === 200) return res.body;
          if (res.status === 404) return null;
        } catch {
          // the gateway waits on a restarting Redis, or timed out
        }
        if (Date.now() > drainEnds) throw new Error(`session ${id}: no view before the deadline`);
        await sleep(250);
      }
    }

    /**
     * Posts turn `turnId`. An answer lost on the way (a 5xx or a timeout while Redis restarts)
     * is checked against the session before retrying, so a turn is never posted twice.
     */
    async function postTurn(id: string, turnId: number, body: Record<string, unknown>): Promise<void> {
      for (;;) {
        try {
          const res = await call(base, 'POST', `/v1/sessions/${id}/turns`, body);
          if (res.status === 200 || res.status === 202) return;
          if (res.status < 500 && res.status !== 409)
            throw new Error(`turn ${turnId}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith(`turn ${turnId}: HTTP`)) throw err;
        }
        const v = await view(id);
        if (!v || v.turn_id >= turnId) return;
        if (Date.now() > drainEnds) throw new Error(`session ${id}: turn ${turnId} never accepted`);
        await sleep(250);
      }
    }

    async function createSession(body: Record<string, unknown> = {}): Promise<string> {
      for (;;) {
        try {
          const res = await call(base, 'POST', '/v1/sessions', body);
          if (res.status === 201) return res.body.session_id as string;
        } catch {
          // retried
        }
        if (Date.now() > drainEnds) throw new Error('no session could be created');
        await sleep(250);
      }
    }

    /** The turn's events as the SSE client would get them. */
    async function turnEvents(id: string, turnId: number): Promise<SessionEvent[]> {
      const r = new Redis(redis.url);
      try {
        const log = new EventLog(r, new RedisKeys(env.REDIS_PREFIX), 100_000, 3_600);
        return (await log.range(id)).map((e) => e.event).filter((e) => e.turn_id === turnId);
      } finally {
        r.disconnect();
      }
    }

    /** Where BullMQ has a node's job (for the report of a turn that failed). */
    async function jobState(id: string, turnId: number, node: NodeName, attempt: number): Promise<string> {
      const queue = new Queue(GRAPH[node].queue, {
        connection: { url: redis.url },
        prefix: `${env.REDIS_PREFIX}-bull`,
      });
      try {
        const job = await queue.getJob(jobId(id, turnId, node, attempt));
        if (!job) return 'job: none';
        const state = await job.getState();
        return `job ${state}, made ${job.attemptsMade}, stalled ${job.stalledCounter}, processed ${job.processedOn ? Date.now() - job.processedOn : '-'} ms ago, ${job.failedReason ?? ''}`;
      } finally {
        await queue.close();
      }
    }

    /**
     * Turn 1 of a conversation, to its end: the view once it stopped, or null when the outcome is
     * already known (hung, lost, failed with or without a clear error), recorded on `c`.
     */
    async function firstTurn(c: Conversation, id: string, body: Record<string, unknown>): Promise<any> {
      await postTurn(id, 1, body);
      let v = await view(id);
      while (v && v.status === 'running' && Date.now() < drainEnds) {
        await sleep(200);
        v = await view(id);
      }
      if (!v) return void Object.assign(c, { outcome: 'lost', detail: 'session vanished' });
      if (v.status === 'running') return void Object.assign(c, { outcome: 'hung', detail: `running at ${v.node}` });
      const ends = (await turnEvents(id, 1)).filter((e) => e.type === 'turn_end');
      if (ends.length !== 1) {
        return void Object.assign(c, {
          outcome: 'lost',
          detail: `turn 1 ended ${v.status} with ${ends.length} turn_end events`,
        });
      }
      if (v.status === 'failed') {
        const events = await turnEvents(id, 1);
        const error = events.find((e) => e.type === 'error');
        const clear = !!v.error?.message && !!error && error.type === 'error' && error.message === v.error.message;
        const job = v.node ? await jobState(id, 1, v.node as NodeName, v.attempts.attempt as number) : '';
        return void Object.assign(c, {
          outcome: clear ? 'failed_clear' : 'lost',
          detail: `${v.error?.message} [${job}]`,
        });
      }
      return v;
    }

    /** A question over both sources: one turn, judged against the gold answer. */
    async function converseOverSources(c: Conversation): Promise<void> {
      const id = await createSession({ sources: 'all' });
      c.sessionId = id;
      const v = await firstTurn(c, id, { text: SOURCES_REQUEST });
      if (!v) return;
      const wrong = wrongSourcesAnswer(v, expected);
      c.outcome = wrong ? 'lost' : 'completed';
      if (wrong) c.detail = `over sources: ${wrong}`;
    }

    async function converse(c: Conversation): Promise<void> {
      if (c.sources) return converseOverSources(c);
      const id = await createSession();
      c.sessionId = id;
      const text = `${REQUEST} [c${c.n}]${c.repair ? ' [repair]' : ''}`;
      let v = await firstTurn(c, id, { text });
      if (!v) return;
      if (v.status !== 'waiting' || v.interrupt?.type !== 'need_confirm' || v.sql !== GOOD_SQL) {
        return void Object.assign(c, {
          outcome: 'lost',
          detail: `turn 1 ended ${v.status} ${JSON.stringify(v.interrupt)}`,
        });
      }
      c.miscounted = v.attempts.attempt !== (c.repair ? 2 : 1);
      if (c.miscounted) c.detail = `attempt ${v.attempts.attempt} (failures ${JSON.stringify(v.attempts.failures)})`;
      await postTurn(id, 2, { confirm: true });
      v = await view(id);
      const confirmEnds = (await turnEvents(id, 2)).filter((e) => e.type === 'turn_end').length;
      c.outcome =
        v && v.status === 'idle' && v.pipeline_request?.sql === GOOD_SQL && confirmEnds === 1 ? 'completed' : 'lost';
      if (c.outcome === 'lost')
        c.detail = `after confirm: ${JSON.stringify(v && { status: v.status, turn: v.turn_id, ends: confirmEnds })}`;
    }

    async function lane(first: number): Promise<void> {
      for (let n = first; Date.now() < chaosEnds; n += N) {
        const c: Conversation = { n, repair: n % 3 === 2, sources: n % 4 === 3, at: Date.now() - started };
        conversations.push(c);
        try {
          await converse(c);
        } catch (err) {
          c.outcome = c.outcome ?? 'lost';
          c.detail = err instanceof Error ? err.message : String(err);
        }
      }
    }

    /**
     * Like an orchestrator, restarts a worker that exited by itself (e.g. it was booting while
     * Redis restarted). Those exits are counted and reported: they should be rare.
     */
    const killed = new Set<ServiceProcess>();
    const crashes: string[] = [];
    let supervising = true;
    const supervisor = (async () => {
      while (supervising) {
        for (const w of [gateway, ...workers]) {
          if (!w.running && !killed.has(w)) {
            crashes.push(`${w.name}: ${w.output.slice(-600).replace(/\s+/g, ' ')}`);
            w.start();
          }
        }
        await sleep(500);
      }
    })();

    async function monkey(): Promise<void> {
      let redisDone = false;
      while (Date.now() < chaosEnds) {
        await sleep(KILL_EVERY_MS * (0.5 + rng()));
        if (Date.now() >= chaosEnds) break;
        if (!redisDone && Date.now() - started > DURATION_MS * 0.4) {
          redisDone = true;
          redisRestartAt = Date.now() - started;
          await redis.restart();
          redisRestarts++;
          continue;
        }
        const victim = workers[Math.floor(rng() * workers.length)];
        if (!victim.running) continue;
        killed.add(victim);
        await victim.stop('SIGKILL');
        kills++;
        const downMs = 200 + rng() * 1_300;
        restarts.push(
          sleep(downMs).then(() => {
            victim.start();
            killed.delete(victim);
          }),
        );
      }
      if (!redisDone) {
        await redis.restart();
        redisRestarts++;
      }
    }

    const stats = async () => {
      const r = new Redis(redis.url);
      try {
        return await readStats(r, new RedisKeys(env.REDIS_PREFIX));
      } finally {
        r.disconnect();
      }
    };

    await Promise.all([monkey(), ...Array.from({ length: N }, (_, i) => lane(i))]);
    await Promise.all(restarts);
    supervising = false;
    await supervisor;
    for (const w of workers) if (!w.running) w.start();

    // A final janitor sweep (two, to be sure one started after the last conversation ended).
    const before = (await stats()).sweeps;
    const sweepDeadline = Date.now() + 6 * SWEEP_EVERY_MS + 20_000;
    while ((await stats()).sweeps < before + 2 && Date.now() < sweepDeadline) await sleep(250);
    const janitor = await stats();

    const count = (o: Outcome) => conversations.filter((c) => c.outcome === o).length;
    // Temp pipelines, and the dry runs' input streams.
    const tmpLeft = [...manager.pipelines(), ...manager.streamNames()].filter((id) =>
      id.startsWith(TMP_PIPELINE_PREFIX),
    );
    const dryRuns = [...manager.successfulCreates().keys()].filter((id) => id.endsWith('_dry')).length;
    // A re-delivered dry run removes what its killed run left and creates it again, by design; the
    // attempt's temp pipeline is reused instead, so a second create of it is a bug.
    const dupCreates = [...manager.successfulCreates()].filter(([id, n]) => n > 1 && !id.endsWith('_dry'));
    const miscounted = conversations.filter((c) => c.miscounted).length;
    const overSources = conversations.filter((c) => c.sources);
    // Node runs started more than once (a killed worker's job re-delivered, or a twin): proof the
    // kills landed inside nodes, not only between them.
    let reruns = 0;
    for (const c of conversations) {
      if (!c.sessionId) continue;
      const starts = (await turnEvents(c.sessionId, 1)).filter((e) => e.type === 'node_start');
      const keys = starts.map((e) => (e.type === 'node_start' ? `${e.node}#${e.attempt}` : ''));
      reruns += keys.length - new Set(keys).size;
    }
    const line =
      `chaos: started=${conversations.length} completed=${count('completed')} failed_clear=${count('failed_clear')} ` +
      `hung=${count('hung')} lost=${count('lost')} tmp_left=${tmpLeft.length} dup_creates=${dupCreates.length} ` +
      `miscounted=${miscounted} kills=${kills} crashes=${crashes.length} reruns=${reruns} redis_restarts=${redisRestarts} ` +
      `janitor_sweeps=${janitor.sweeps} janitor_tmp_deleted=${janitor.tmp_deleted + janitor.tmp_reaped} ` +
      `janitor_turns_failed=${janitor.turns_failed} dry_runs=${dryRuns} ` +
      `sources_turns=${overSources.length} sources_completed=${overSources.filter((c) => c.outcome === 'completed').length} (${sources.engines}) ` +
      `seed=${SEED} duration_s=${Math.round((Date.now() - started) / 1000)}`;
    process.stdout.write(`\n${line}\n`);
    if (process.env.CHAOS_REPORT) writeFileSync(process.env.CHAOS_REPORT, `${line}\n`);
    if (process.env.CHAOS_LOG_DIR) {
      mkdirSync(process.env.CHAOS_LOG_DIR, { recursive: true });
      [gateway, ...workers].forEach((p, i) =>
        writeFileSync(path.join(process.env.CHAOS_LOG_DIR!, `${i}-${p.name}.log`), p.output),
      );
      writeFileSync(
        path.join(process.env.CHAOS_LOG_DIR, 'timeline.txt'),
        [
          `redis restart at +${redisRestartAt} ms`,
          ...conversations.map((c) => `#${c.n} +${c.at} ${c.sessionId} ${c.outcome} ${c.detail ?? ''}`),
        ].join('\n'),
      );
    }
    const odd = conversations.filter((c) => c.outcome !== 'completed' || c.miscounted);
    if (odd.length)
      process.stdout.write(
        `${odd.map((c) => `  #${c.n} ${c.sessionId ?? '-'} ${c.outcome}: ${c.detail ?? ''}`).join('\n')}\n`,
      );
    if (crashes.length) process.stdout.write(`${crashes.map((c) => `  exited by itself: ${c}`).join('\n')}\n`);
    if (tmpLeft.length || dupCreates.length)
      process.stdout.write(`  tmp_left ${JSON.stringify(tmpLeft)} dup ${JSON.stringify(dupCreates)}\n`);

    expect(conversations.length).toBeGreaterThanOrEqual(N);
    expect(kills).toBeGreaterThan(0);
    expect(redisRestarts).toBe(1);
    expect(dryRuns).toBeGreaterThan(0);
    expect(overSources.length).toBeGreaterThan(0);
    expect({
      hung: count('hung'),
      lost: count('lost'),
      tmp_left: tmpLeft.length,
      dup_creates: dupCreates.length,
      miscounted,
    }).toEqual({
      hung: 0,
      lost: 0,
      tmp_left: 0,
      dup_creates: 0,
      miscounted: 0,
    });
    expect(count('completed') + count('failed_clear')).toBe(conversations.length);
    expect(count('completed')).toBeGreaterThan(0);
    // The janitor reported its sweeps as spans too (the OTLP exporter batches; allow a moment).
    const spanDeadline = Date.now() + 5_000;
    while (!otlp.spans.some((s) => s.name === 'janitor sweep') && Date.now() < spanDeadline) await sleep(100);
    const sweepSpan = otlp.spans.find((s) => s.name === 'janitor sweep');
    expect(sweepSpan?.service).toBe('janitor');
    expect(sweepSpan?.attributes).toEqual(expect.objectContaining({ 'nl2p.janitor.tmp_seen': expect.any(Number) }));
  });
});
