import { Redis } from 'ioredis';
import { LlmScript } from '../support/llm-script';
import { readSse, type SseEvent } from '../support/sse';
import { useWorkflowStack } from '../support/workflow-stack';

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const nl2sql = { intent: 'nl2sql' as const, stream: 'sensor_stream', question: null };

describe('events over SSE, and the trace view', () => {
  const t = useWorkflowStack({ env: { SSE_HEARTBEAT_MS: '150' } });
  const { llm } = t;

  it('streams node events and draft deltas live; a reconnect with Last-Event-ID gets every remaining event once', async () => {
    // ~40 words at 25 ms each: the draft takes about a second to arrive, delta by delta.
    const slowDraft = `${GOOD_SQL} `.repeat(1).trim();
    new LlmScript(llm).route(nl2sql).draft({ content: slowDraft, chunkDelayMs: 25 });
    const id = await t.api.createSession();
    const started = await t.api.request('POST', `/v1/sessions/${id}/turns`, {
      text: 'avg temperature per device every 10 s above 30',
    });
    expect(started.status).toBe(202);
    const url = `${t.api.baseUrl}/v1/sessions/${id}/events?turn=1`;

    const first = await readSse(url, { stop: (_e, all) => all.filter((x) => x.type === 'draft_delta').length >= 3 });
    expect(first.ended).toBe('client');
    expect(first.events.some((e) => e.type === 'node_start' && e.data.node === 'init_session')).toBe(true);
    expect(first.events.filter((e) => e.type === 'draft_delta')).toHaveLength(3);
    expect(first.events.some((e) => e.type === 'turn_end')).toBe(false);

    const lastId = first.events[first.events.length - 1].id;
    const second = await readSse(url, { lastEventId: lastId });
    expect(second.ended).toBe('server');
    const last = second.events[second.events.length - 1];
    expect(last.type).toBe('end');
    expect(last.data).toEqual({ turn_id: 1, status: 'waiting' });

    // Exactly once, in order: the two connections together are the turn's whole stream.
    const seen = [...first.events, ...second.events].filter((e) => e.type !== 'end' && e.type !== 'heartbeat');
    const ids = seen.map((e) => e.id);
    expect(ids.filter((x, i) => ids.indexOf(x) !== i)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const all = await readSse(url);
    const stored = all.events.filter((e) => e.type !== 'end' && e.type !== 'heartbeat').map((e) => e.id);
    expect(ids).toEqual(stored);

    const deltas = seen.filter((e) => e.type === 'draft_delta').map((e: SseEvent) => e.data.delta as string);
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    expect(deltas.join('')).toBe(slowDraft);
    const types = seen.map((e) => e.type);
    expect(types.indexOf('draft_delta')).toBeLessThan(types.indexOf('turn_end'));
    expect(types).toContain('interrupt');
    // Heartbeats while the draft was slow (every 150 ms here).
    expect([...first.events, ...second.events].some((e) => e.type === 'heartbeat')).toBe(true);
  });

  it('the trace endpoint returns per-node records whose latencies fit within the turn wall time', async () => {
    t.script
      .route(nl2sql)
      .draft(GOOD_SQL.replace('temperature >', 'temp >'))
      .revise({ sql: GOOD_SQL, questions: [], assumptions: [] });
    const id = await t.api.createSession();
    const t0 = Date.now();
    const view = await t.api.turn(id, { text: 'avg temperature per device every 10 s above 30' });
    const wall = Date.now() - t0;
    expect(view.interrupt.type).toBe('need_confirm');

    const { records } = (await t.api.request('GET', `/v1/sessions/${id}/trace?turn=1`)).body;
    const nodes = records.map((r: { node: string }) => r.node);
    expect(nodes).toEqual([
      'init_session',
      'link',
      'route_intent',
      'ensure_active_stream',
      'draft_sql',
      'prevalidate',
      'revise_sql',
      'prevalidate',
      'validate',
      'explain',
      'cleanup',
      'confirm',
    ]);
    const sum = records.reduce((acc: number, r: { latency_ms: number }) => acc + r.latency_ms, 0);
    expect(sum).toBeLessThanOrEqual(wall);
    for (const r of records) {
      expect(new Date(r.end).getTime() - new Date(r.start).getTime()).toBe(r.latency_ms);
      expect(typeof r.ok).toBe('boolean');
    }
    expect(records[5]).toMatchObject({ node: 'prevalidate', attempt: 1, ok: true });
    const revise = records.find((r: { node: string }) => r.node === 'revise_sql');
    expect(revise.llm[0]).toMatchObject({ model: 'scripted-reasoning' });
    expect(revise.llm[0].input_tokens).toBeGreaterThan(0);
    // Per-turn metrics in the session view agree with the records.
    const llmCalls = records.flatMap((r: { llm: unknown[] }) => r.llm).length;
    expect(view.metrics.llm_calls).toBe(llmCalls);
    expect(view.metrics.engine_calls).toBe(records.flatMap((r: { engine: unknown[] }) => r.engine).length);
    // The seed's unversioned path serves the same records.
    const seed = (await t.api.request('GET', `/sessions/${id}/trace`)).body;
    expect(seed.records).toHaveLength(records.length);
  });

  it('many SSE clients of one gateway share one Redis connection, and each gets the whole turn', async () => {
    const redis = new Redis(t.stack.config.redis.url);
    try {
      const clients = async () => ((await redis.client('LIST')) as string).trim().split('\n').length;
      new LlmScript(llm).route(nl2sql).draft(GOOD_SQL);
      const id = await t.api.createSession();
      const url = `${t.api.baseUrl}/v1/sessions/${id}/events?turn=1`;
      const before = await clients();
      // Connected before the turn starts: they wait for it, each holding its SSE request open.
      const followers = Array.from({ length: 40 }, () => readSse(url, { timeoutMs: 30_000 }));
      await new Promise((r) => setTimeout(r, 500));
      const during = await clients();
      const started = await t.api.request('POST', `/v1/sessions/${id}/turns`, { text: 'avg temperature above 30' });
      expect(started.status).toBe(202);
      const results = await Promise.all(followers);

      // A blocking connection per client would be +40.
      expect(during - before).toBeLessThanOrEqual(1);
      const reference = results[0].events.filter((e) => e.type !== 'heartbeat').map((e) => e.id);
      expect(results[0].events.map((e) => e.type)).toContain('turn_end');
      for (const r of results) {
        expect(r.ended).toBe('server');
        expect(r.events.filter((e) => e.type !== 'heartbeat').map((e) => e.id)).toEqual(reference);
        expect(r.events[r.events.length - 1]).toMatchObject({ type: 'end', data: { turn_id: 1, status: 'waiting' } });
      }
    } finally {
      redis.disconnect();
    }
  });

  it('an SSE request for an unknown session is 404', async () => {
    const res = await fetch(`${t.api.baseUrl}/v1/sessions/${'f'.repeat(32)}/events`);
    expect(res.status).toBe(404);
  });
});
