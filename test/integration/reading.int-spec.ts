import { TMP_PIPELINE_PREFIX, type NodeTraceRecord } from '@nl2p/envelope';
import { readSse } from '../support/sse';
import { useWorkflowStack } from '../support/workflow-stack';

/** The nodes of a conclusive turn after `link`: compiled on the validator, no LLM service. */
const READ_ROUTE = [
  'link',
  'ensure_active_stream',
  'compile_plan',
  'prevalidate',
  'validate',
  'explain',
  'cleanup',
  'confirm',
];

/**
 * The request read once (the `link` node, ARCHITECTURE §7a), through the whole workflow on real
 * Redis and BullMQ, with the embedded default's settings: DuckDB, plan mode trusting conclusive
 * readings, linking on. A conclusive request never visits the LLM services; anything else goes
 * through the model as before.
 */
describe('the reading: a conclusive request never visits the LLM services', () => {
  const w = useWorkflowStack({
    duckdb: true,
    env: { TARGET: 'duckdb', LINKING: 'true', DRAFT_MODE: 'plan', PLAN_TRUST_LINKS: 'true' },
  });

  afterEach(() => {
    expect(w.manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  const trace = async (id: string, turn: number): Promise<NodeTraceRecord[]> =>
    (await w.api.request('GET', `/v1/sessions/${id}/trace?turn=${turn}`)).body.records;

  it('on DuckDB: gateway → validator → explainer, no router-llm or sql-drafter, no LLM call', async () => {
    const id = await w.api.createSession({ target: 'duckdb' });
    const view = await w.api.turn(id, { text: 'average temperature per device' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.active_stream).toBe('sensor_readings');
    expect(view.sql).toMatch(/SELECT device_id, avg\(temperature\).* FROM sensor_readings GROUP BY device_id/i);
    expect(view.draft_mode).toBe('plan');
    expect(view.query_plan).toMatchObject({ source: 'sensor_readings' });
    expect(view.preview.rows.length).toBeGreaterThan(0);

    const records = await trace(id, 1);
    expect(records.map((r) => r.node)).toEqual(['init_session', ...READ_ROUTE]);
    // The services the turn went through, in order: two queue hops after the gateway's.
    const services = records.map((r) => r.service).filter((s, i, all) => s !== all[i - 1]);
    expect(services).toEqual(['validator', 'explainer']);
    expect(records.flatMap((r) => r.llm)).toEqual([]);
    // The scripted LLM server heard nothing at all.
    expect(w.llm.requests).toEqual([]);
    expect(w.script.calls).toEqual([]);
    expect(view.metrics.llm_calls).toBe(0);

    // Clients watching the turn still see the draft arrive, from the node that compiled it.
    const sse = await readSse(`${w.api.baseUrl}/v1/sessions/${id}/events?turn=1`);
    const started = sse.events.filter((e) => e.type === 'node_start').map((e) => e.data.node as string);
    expect(started).not.toContain('route_intent');
    expect(started).not.toContain('draft_sql');
    expect(sse.events.filter((e) => e.type === 'draft_delta').map((e) => e.data)).toEqual([
      { type: 'draft_delta', turn_id: 1, node: 'compile_plan', delta: view.sql },
    ]);
  });

  it('on veloFlux: the window compiled on the validator, validated with a temp pipeline, still no LLM call', async () => {
    const id = await w.api.createSession({ target: 'veloflux' });
    const view = await w.api.turn(id, { text: 'average temperature per device every 10 seconds, only above 30' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.active_stream).toBe('sensor_stream');
    expect(view.sql).toMatch(/tumblingwindow\('ss', 10\)/);
    expect(view.assumptions.join(' ')).toMatch(/inside the aggregates/);
    expect(view.pipeline_request).toMatchObject({ sql: view.sql });
    const records = await trace(id, 1);
    expect(records.map((r) => r.node)).toEqual(['init_session', ...READ_ROUTE]);
    expect(new Set(records.map((r) => r.service))).toEqual(new Set(['validator', 'explainer']));
    expect(w.llm.requests).toEqual([]);
  });

  it('an inconclusive reading goes through the model as before: the drafter asks it, with the reading as the hint', async () => {
    // "quantity per status" says no aggregate: the reading is partial, its intent a query.
    w.script.plan({
      table: 'orders',
      columns: [],
      aggregates: [{ fn: 'avg', of: 'quantity', distinct: false }],
      filters: [],
      group_by: ['status'],
      time: null,
      order: null,
      limit: null,
    });
    const id = await w.api.createSession({ target: 'duckdb' });
    const view = await w.api.turn(id, { text: 'quantity per status' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toMatch(/avg\(quantity\)/i);
    const records = await trace(id, 1);
    expect(records.map((r) => r.node)).toEqual([
      'init_session',
      'link',
      'route_intent',
      'ensure_active_stream',
      'draft_sql',
      'prevalidate',
      'validate',
      'explain',
      'cleanup',
      'confirm',
    ]);
    // The reading decided the intent: the router made no model call; the drafter made one.
    expect(records.find((r) => r.node === 'route_intent')?.llm).toEqual([]);
    expect(records.find((r) => r.node === 'draft_sql')?.llm).toHaveLength(1);
    expect(w.script.calls.map((c) => c.kind)).toEqual(['plan']);
    const prompt = w.script.calls[0]?.request.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('"table":"orders"');
  });

  it('an open intent asks the router model; the answer is read again, and once conclusive skips the LLM services', async () => {
    w.script.route({ intent: 'ask_user', stream: null, question: 'What would you like to compute?' });
    const id = await w.api.createSession({ target: 'duckdb' });
    const asked = await w.api.turn(id, { text: 'Show me the data.' });

    expect(asked.interrupt).toMatchObject({ type: 'need_clarification', question: 'What would you like to compute?' });
    expect((await trace(id, 1)).map((r) => r.node)).toEqual(['init_session', 'link', 'route_intent']);
    expect(w.script.calls.map((c) => c.kind)).toEqual(['router']);

    const answered = await w.api.turn(id, { text: 'average temperature per device' });
    expect(answered.interrupt.type).toBe('need_confirm');
    expect(answered.sql).toMatch(/avg\(temperature\)/i);
    const records = await trace(id, 2);
    expect(records.map((r) => r.node)).toEqual(READ_ROUTE);
    expect(w.script.calls.map((c) => c.kind)).toEqual(['router']);
  });
});
