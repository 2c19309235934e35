import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { SERVICES, ServiceProcess, freePort, waitForHealth } from '../support/processes';
import { deletePrefix, testEnv } from '../support/stack';

jest.setTimeout(60_000);

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";

describe('end to end: six services as separate processes, driven over HTTP only', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let env: Record<string, string>;
  let procs: ServiceProcess[] = [];
  let api: GatewayClient;

  beforeAll(async () => {
    const [managerUrl, llmUrl, port] = await Promise.all([manager.start(), llm.start(), freePort()]);
    env = testEnv({ managerUrl, llmUrl, env: { GATEWAY_PORT: String(port), LOG_JSON: 'true', LOG_LEVEL: 'log' } });
    procs = SERVICES.map((name) => new ServiceProcess(name, env));
    procs.forEach((p) => p.start());
    api = new GatewayClient(`http://127.0.0.1:${port}`);
    await waitForHealth(api.baseUrl, 30_000, procs);
  });

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all([manager.stop(), llm.stop()]);
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
});
