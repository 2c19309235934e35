import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { startStack, type Stack } from '../support/stack';

/**
 * Issue 6, "must show" 1 (last item): every path segment sent to the Manager is encoded, so a
 * stream named `../pipelines` or with a `?` is data, never a route. The fake Manager records the
 * raw (undecoded) path of each request as it reached the socket.
 */
describe('path segments sent to the Manager are encoded (fake Manager raw paths)', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let stack: Stack;
  let api: GatewayClient;

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    // One janitor sweep (GET /pipelines) at start, then none during the test: any GET /pipelines
    // seen later could only come from a stream name turned into a route.
    stack = await startStack({ managerUrl, llmUrl, env: { JANITOR_SWEEP_EVERY_MS: '3600000' } });
    const deadline = Date.now() + 3_000;
    while (!manager.requests.some((r) => r.rawPath === '/pipelines') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    api = new GatewayClient(stack.gatewayUrl);
  });

  afterAll(async () => {
    await stack?.close();
    await Promise.all([manager.stop(), llm.stop()]);
  });

  const columns = [
    { name: 'device_id', data_type: 'string' },
    { name: 'temperature', data_type: 'float64' },
  ];

  it.each([
    ['../pipelines', '/streams/describe/..%2Fpipelines'],
    ['x?y=1', '/streams/describe/x%3Fy%3D1'],
    ['a/b#c', '/streams/describe/a%2Fb%23c'],
  ])('a stream named %j is described at %s and nothing else is requested', async (name, describePath) => {
    manager.reset();
    llm.reset();
    manager.addStream(name, columns);
    const sql = `SELECT device_id, max(temperature) AS m FROM "${name}" GROUP BY device_id, countwindow(5)`;
    new LlmScript(llm)
      .route({ intent: 'nl2sql', stream: null, question: null })
      .draft(sql)
      .revise(
        { sql: null, questions: ['Which stream?'], assumptions: [] },
        { sql: null, questions: ['?'], assumptions: [] },
      );
    const id = await api.createSession();
    const asked = await api.turn(id, { text: 'max temperature per device every 5 readings' });
    expect(asked.interrupt.type).toBe('need_stream');
    expect(asked.interrupt.choices).toContain(name);

    const view = await api.turn(id, { stream: name });
    expect(['waiting', 'idle', 'failed']).toContain(view.status);
    expect(view.active_stream).toBe(name);

    const paths = manager.requests.map((r) => `${r.method} ${r.rawPath}`);
    expect(paths).toContain(`GET ${describePath}`);
    // The name never became a route of its own: no request outside the product's routes, and no
    // decoded path that walks out of /streams/describe/.
    const allowed = [
      /^GET \/streams$/,
      /^GET \/functions$/,
      /^GET \/capabilities\/syntax$/,
      new RegExp(`^GET ${escape(describePath)}$`),
      /^POST \/pipelines$/,
      new RegExp(`^(GET|DELETE) /pipelines/${TMP_PIPELINE_PREFIX}[0-9a-f]{32}_\\d+_\\d+(/explain)?$`),
    ];
    for (const p of paths) expect(allowed.some((re) => re.test(p)) ? p : `unexpected: ${p}`).toBe(p);
    expect(paths.filter((p) => p === 'GET /pipelines')).toEqual([]);
    for (const r of manager.requests.filter((x) => x.method === 'POST')) {
      expect(JSON.parse(r.body).id.startsWith(TMP_PIPELINE_PREFIX)).toBe(true);
    }
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
