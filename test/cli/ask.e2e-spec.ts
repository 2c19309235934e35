import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { freePort } from '@nl2p/testing';
import { useWorkflowStack } from '../support/workflow-stack';
import { cliEnv, runCli } from './terminal';

jest.setTimeout(60_000);

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REQUEST = 'average temperature per device every 10 seconds, only above 30';
const DUCK_SQL =
  'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id';
const QUESTION = 'Which temperature threshold do you mean, in Celsius?';
const nl2sql = (stream: string | null = 'sensor_stream') => ({ intent: 'nl2sql' as const, stream, question: null });

describe('nl2pipeline ask (one-shot) against the running services', () => {
  // DuckDB too: sessions choose their engine, so SQL targets (with preview rows) run here as well.
  const w = useWorkflowStack({ duckdb: true, env: { PREVIEW_ROWS: '3' } });
  const { manager } = w;
  let env: Record<string, string>;

  beforeAll(() => {
    env = cliEnv({ NL2P_URL: w.stack.gatewayUrl });
  });

  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  it('success: the pipeline request JSON on stdout and nothing else, exit 0', async () => {
    w.script.route(nl2sql()).draft(GOOD_SQL);
    const res = await runCli(['ask', REQUEST, '--stream', 'sensor_stream', '--yes'], env);

    expect(res).toMatchObject({ code: 0, stderr: '' });
    const request = JSON.parse(res.stdout);
    expect(request).toEqual({
      id: 'REPLACE_ME',
      sql: GOOD_SQL,
      sinks: [
        {
          type: 'mqtt',
          props: expect.objectContaining({ topic: 'nl2pipeline/output' }),
          output: { mode: 'full', omit_if_empty: true },
        },
      ],
      options: expect.any(Object),
    });
    // Exactly the JSON: no banner, no colours, no progress.
    expect(res.stdout).toBe(`${JSON.stringify(request, null, 2)}\n`);
    // The request went through the real workflow: routed, drafted, validated in the engine.
    expect(w.script.callsOf('router')).toHaveLength(1);
    expect(JSON.stringify(w.script.callsOf('draft')[0].messages)).toContain(REQUEST);
    expect(manager.requests.some((r) => r.method === 'POST' && r.rawPath === '/pipelines')).toBe(true);
  });

  it('SQL target: the SQL and the preview rows on stdout, exit 0', async () => {
    w.script.route({ intent: 'nl2sql', stream: 'sensor_readings', question: null }).draft(DUCK_SQL);
    const res = await runCli(
      ['ask', 'average temperature per device when above 30', '--target', 'duckdb', '--yes'],
      env,
    );

    expect(res).toMatchObject({ code: 0, stderr: '' });
    const [sql, preview] = res.stdout.split('\n\n');
    expect(sql).toBe(DUCK_SQL);
    expect(preview.split('\n').slice(0, 5)).toEqual([
      'preview',
      expect.stringMatching(/^device_id\s+avg_temp$/),
      expect.stringMatching(/^─+\s+─+$/),
      expect.stringMatching(/^dev-01\s+\d+(\.\d+)?$/),
      expect.stringMatching(/^dev-03\s+\d+(\.\d+)?$/),
    ]);
    expect(res.stdout).not.toContain('\x1b[');
  });

  it('a request that needs clarification exits 3 with the question on stderr; --session answers it', async () => {
    w.script.route(nl2sql()).draft(`QUESTION: ${QUESTION}`).draft(GOOD_SQL);
    const res = await runCli(['ask', 'alert when it is too hot', '--stream', 'sensor_stream', '--yes'], env);

    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(QUESTION);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    const sessionId = /--session ([0-9a-f]{32})/.exec(res.stderr)![1];

    // The answer continues the same session; --yes accepts the validated draft.
    const answered = await runCli(['ask', 'above 30 degrees', '--session', sessionId, '--yes'], env);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({ sql: GOOD_SQL });
    const view = (await w.api.request('GET', `/v1/sessions/${sessionId}`)).body;
    expect(view.request).toBe('alert when it is too hot');
  });

  it('without --yes a validated draft waits for confirmation: exit 3, nothing on stdout; --json shows the whole view', async () => {
    w.script.route(nl2sql()).draft(GOOD_SQL);
    const res = await runCli(['ask', REQUEST, '--stream', 'sensor_stream'], env);
    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^nl2pipeline: the SQL is validated and waits for confirmation: re-run with --yes/);
    const sessionId = /--session ([0-9a-f]{32})/.exec(res.stderr)![1];

    const accepted = await runCli(['ask', 'yes', '--session', sessionId, '--json'], env);
    expect(accepted.code).toBe(0);
    const view = JSON.parse(accepted.stdout);
    expect(view).toMatchObject({ session_id: sessionId, status: 'idle', sql: GOOD_SQL, interrupt: null });
    expect(view.pipeline_request).toMatchObject({ id: 'REPLACE_ME', sql: GOOD_SQL });
  });

  it('no stream named and several exist: exit 3 naming the choices', async () => {
    w.script.route(nl2sql(null));
    const res = await runCli(['ask', REQUEST, '--yes'], env);
    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^nl2pipeline: needs a stream: .*--stream \(sensor_stream, vehicle\)\n$/);
  });

  it('a gateway that is down: a one-line error and exit 1', async () => {
    const port = await freePort();
    const res = await runCli(['ask', REQUEST], cliEnv({ NL2P_URL: `http://127.0.0.1:${port}` }));
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      `nl2pipeline: cannot reach the gateway at http://127.0.0.1:${port} (ECONNREFUSED): is it running? (set --url or NL2P_URL)\n`,
    );
  });

  it('a gateway that answers errors: one line, exit 1; the API key goes out as a bearer token', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const broken: Server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 503, message: 'redis unreachable', error: 'Service Unavailable' }));
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
      const res = await runCli(['ask', REQUEST, '--url', url], cliEnv({ NL2P_API_KEY: 'k-123' }));
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe('nl2pipeline: gateway answered 503 on POST /v1/sessions: redis unreachable\n');
      expect(seen[0].authorization).toBe('Bearer k-123');
    } finally {
      broken.closeAllConnections();
      await new Promise<void>((r) => broken.close(() => r()));
    }
  });

  it('bad usage: a one-line hint and exit 2, before any request', async () => {
    const cases = [
      [['ask'], /ask needs a request/],
      [['ask', 'x', '--bogus'], /unknown option '--bogus'/],
      [['ask', 'x', '--session', 'nope'], /--session takes a session id/],
      [['--yes'], /--yes is an option of ask/],
      [['frobnicate'], /unknown command 'frobnicate'/],
    ] as const;
    for (const [args, message] of cases) {
      const res = await runCli([...args], env);
      expect({ args, code: res.code, lines: res.stderr.trim().split('\n').length }).toEqual({
        args,
        code: 2,
        lines: 1,
      });
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
  });
});
