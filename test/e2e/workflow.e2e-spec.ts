import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { SERVICES, ServiceProcess, freePort, waitForHealth } from '@nl2p/testing';
import { OtlpReceiver } from '../support/otlp-receiver';
import { deletePrefix, testEnv } from '../support/stack';

jest.setTimeout(120_000);

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";

describe('end to end: six services as separate processes, driven over HTTP only', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  const otlp = new OtlpReceiver();
  let env: Record<string, string>;
  let procs: ServiceProcess[] = [];
  let api: GatewayClient;

  beforeAll(async () => {
    const [managerUrl, llmUrl, otlpUrl, port] = await Promise.all([
      manager.start(),
      llm.start(),
      otlp.start(),
      freePort(),
    ]);
    env = testEnv({
      managerUrl,
      llmUrl,
      env: {
        GATEWAY_PORT: String(port),
        LOG_JSON: 'true',
        LOG_LEVEL: 'log',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
    procs = SERVICES.map((name) => new ServiceProcess(name, env));
    procs.forEach((p) => p.start());
    api = new GatewayClient(`http://127.0.0.1:${port}`);
    // Six Node processes booting on a busy 2-core machine: 30 s was too little under load.
    await waitForHealth(api.baseUrl, 90_000, procs);
  });

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all([manager.stop(), llm.stop(), otlp.stop()]);
    if (env) await deletePrefix(env.REDIS_URL, env.REDIS_PREFIX);
  });

  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  it('serves its OpenAPI document', async () => {
    const doc = await api.request('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/v1/sessions', '/v1/sessions/{id}/turns', '/nl2pipeline/turn']),
    );
  });

  it('happy path to need_confirm, then confirm', async () => {
    new LlmScript(llm).route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
    const id = await api.createSession();
    const view = await api.turn(id, { text: 'average temperature per device every 10 seconds, only above 30' });
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toBe(GOOD_SQL);
    expect(view.explain).toContain('Physical Plan Explain:');
    expect(view.pipeline_request).toMatchObject({ id: 'REPLACE_ME', sql: GOOD_SQL });
    expect((await api.turn(id, { confirm: true })).status).toBe('idle');
  });

  it('one repair from the engine error', async () => {
    const bad = GOOD_SQL.replace('avg(temperature)', 'avg(temperature) + abs(ts)');
    manager.rejectNextCreate(
      400,
      "failed to create pipeline x: pipeline build error: SELECT expression 'device_id' must be an aggregate or appear in GROUP BY",
    );
    const script = new LlmScript(llm)
      .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
      .draft(bad)
      .revise({ sql: GOOD_SQL, questions: [], assumptions: ['processing time'] });
    const id = await api.createSession();
    const view = await api.turn(id, { text: 'average temperature per device every 10 seconds above 30' });
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toBe(GOOD_SQL);
    expect(view.assumptions).toEqual(['processing time']);
    expect(view.attempts.failures).toHaveLength(1);
    expect(JSON.stringify(script.callsOf('revise')[0].messages)).toContain(
      'must be an aggregate or appear in GROUP BY',
    );
  });

  it('one turn with a repair is one trace: node spans from five services under the gateway turn span', async () => {
    const request = 'average temperature per device every 10 seconds above 30';
    manager.rejectNextCreate(
      400,
      "failed to create pipeline x: pipeline build error: SELECT expression 'device_id' must be an aggregate or appear in GROUP BY",
    );
    new LlmScript(llm)
      .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
      .draft(GOOD_SQL)
      .revise({ sql: GOOD_SQL, questions: [], assumptions: [] });
    const id = await api.createSession();
    const view = await api.turn(id, { text: request });
    expect(view.interrupt.type).toBe('need_confirm');

    // Spans arrive in batches; wait (bounded) until the confirm node's and the turn's are in.
    const deadline = Date.now() + 15_000;
    const forSession = () => otlp.spans.filter((s) => s.attributes['nl2p.session_id'] === id);
    const complete = () => ['node confirm', 'turn'].every((n) => forSession().some((s) => s.name === n));
    while (!complete() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const nodeSpans = forSession().filter((s) => s.name.startsWith('node '));
    const root = otlp.spans.find((s) => s.name === 'turn' && s.attributes['nl2p.session_id'] === id);
    expect(root).toBeDefined();
    expect(root!.service).toBe('gateway');
    const traceId = root!.traceId;
    const trace = otlp.spans.filter((s) => s.traceId === traceId);

    // One trace for the whole turn, every node a direct child of the gateway's turn span.
    expect(new Set(forSession().map((s) => s.traceId))).toEqual(new Set([traceId]));
    expect(nodeSpans.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'node init_session',
        'node route_intent',
        'node draft_sql',
        'node validate',
        'node revise_sql',
        'node explain',
        'node confirm',
      ]),
    );
    for (const s of nodeSpans) expect(s.parentSpanId).toBe(root!.spanId);
    expect(new Set(nodeSpans.map((s) => s.service))).toEqual(
      new Set(['validator', 'router-llm', 'sql-drafter', 'explainer']),
    );
    expect(new Set(trace.map((s) => s.service)).size).toBeGreaterThanOrEqual(5);
    const validateSpans = nodeSpans.filter((s) => s.name === 'node validate');
    expect(validateSpans.map((s) => s.attributes['nl2p.attempt']).sort()).toEqual([1, 2]);

    // LLM calls: GenAI attributes with token counts, children of their node span.
    const llmSpans = trace.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(llmSpans.length).toBe(3);
    for (const s of llmSpans) {
      expect(s.attributes['gen_ai.request.model']).toMatch(/^scripted-/);
      expect(s.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      expect(s.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
      expect(s.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
      expect(nodeSpans.map((n) => n.spanId)).toContain(s.parentSpanId);
    }
    // Engine calls: method, route, status.
    const engineSpans = trace.filter((s) => s.attributes['url.template']);
    expect(
      engineSpans.map((s) =>
        [s.attributes['http.request.method'], s.attributes['url.template'], s.attributes['http.response.status_code']]
          .map(String)
          .join(' '),
      ),
    ).toEqual(
      expect.arrayContaining([
        'POST /pipelines 400',
        'POST /pipelines 201',
        'DELETE /pipelines/:id 200',
        'GET /pipelines/:id/explain 200',
      ]),
    );

    // No prompt or SQL text anywhere by default.
    const everything = JSON.stringify(trace);
    expect(everything).not.toContain('SELECT');
    expect(everything).not.toContain(request);
    expect(everything).not.toContain('temperature');
  });
});
