import { createHash } from 'node:crypto';
import { useWorkflowStack } from '../support/workflow-stack';
import { OpenApiValidator } from './openapi-validator';

const KEY = 'contract-key-0123456789';
const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REQUEST = 'average temperature per device every 10 seconds, only above 30';
const nl2sql = { intent: 'nl2sql' as const, stream: 'sensor_stream', question: null };
/**
 * Operations whose success needs a conversation this stack's scripted model does not hold; their
 * refusals are checked here, their success (and its body) where the conversation is.
 */
const SUCCEEDS_ELSEWHERE = new Set([
  // test/integration/glossary.int-spec.ts: 201 after a definition given in a reply.
  'POST /v1/glossary/remember',
]);

// The gateway's OpenAPI document against the gateway itself: every operation is called, with the
// answers a client meets (success, refusals, conflicts, limits), and each answer's status and body
// must be what the document says. A controller that answers otherwise fails here.
describe('the OpenAPI document matches what the gateway answers', () => {
  const w = useWorkflowStack({
    duckdb: true,
    env: { AUTH_DISABLED: 'false', API_KEYS: `acme:${createHash('sha256').update(KEY).digest('hex')}` },
  });
  let validator: OpenApiValidator;
  const problems: string[] = [];

  /** Calls `template` with `params` filled in and checks the answer against the document. */
  async function call(
    method: string,
    template: string,
    params: Record<string, string> = {},
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
  ): Promise<{ status: number; body: any }> {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
    const query = params.query ? `?${params.query}` : '';
    const res = await fetch(`${w.stack.gatewayUrl}${path}${query}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const type = res.headers.get('content-type');
    // The event stream ends with the turn; read only its head.
    const text = type?.startsWith('text/event-stream') ? await firstChunk(res) : await res.text();
    const parsed: unknown = type?.startsWith('application/json') && text ? JSON.parse(text) : text;
    problems.push(...validator.check(method, template, res.status, type, parsed));
    return { status: res.status, body: parsed };
  }

  beforeAll(async () => {
    validator = new OpenApiValidator(
      (await (await fetch(`${w.stack.gatewayUrl}/openapi.json`)).json()) as Record<string, any>,
    );
  });

  it('sessions, turns, events, traces, cancel, delete', async () => {
    w.script.route(nl2sql, nl2sql).draft(GOOD_SQL, { content: GOOD_SQL, chunkDelayMs: 300 });
    expect((await call('POST', '/v1/sessions', {}, {}, {})).status).toBe(401);
    expect((await call('POST', '/v1/sessions', {}, { target: 'nope' })).status).toBe(400);
    expect((await call('POST', '/v1/sessions', {}, 'x'.repeat(70_000))).status).toBe(413);
    const created = await call('POST', '/v1/sessions', {}, { target: 'veloflux' });
    expect(created.status).toBe(201);
    const id: string = created.body.session_id;

    expect((await call('POST', '/v1/sessions/{id}/turns/current/cancel', { id })).status).toBe(409);
    const waited = await call('POST', '/v1/sessions/{id}/turns', { id }, { text: REQUEST, wait: true });
    expect(waited).toMatchObject({ status: 200, body: { status: 'waiting', interrupt: { type: 'need_confirm' } } });
    // A stream choice while a confirmation is pending says what the session waits for.
    const misplaced = await call('POST', '/v1/sessions/{id}/turns', { id }, { stream: 'sensor_stream' });
    expect(misplaced).toMatchObject({ status: 400, body: { message: expect.stringMatching(/confirmation/) } });
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, { confirm: true })).status).toBe(200);

    // A slow draft: the turn runs (202), a second one conflicts (409), the events stream, cancel ends it.
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, { text: REQUEST })).status).toBe(202);
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, { text: REQUEST })).status).toBe(409);
    expect((await call('GET', '/v1/sessions/{id}/events', { id, query: 'turn=2' })).status).toBe(200);
    expect((await call('POST', '/v1/sessions/{id}/turns/current/cancel', { id })).status).toBe(200);

    expect((await call('GET', '/v1/sessions/{id}', { id })).status).toBe(200);
    expect((await call('GET', '/v1/sessions/{id}', { id: 'f'.repeat(32) })).status).toBe(404);
    expect((await call('GET', '/v1/sessions', { query: 'limit=5' })).status).toBe(200);
    expect((await call('GET', '/v1/sessions', { query: 'cursor=bad' })).status).toBe(400);
    expect((await call('GET', '/v1/sessions/{id}/trace', { id, query: 'turn=1' })).status).toBe(200);
    expect((await call('GET', '/sessions/{id}/trace', { id })).status).toBe(200);

    w.script.route({ intent: 'list_streams', stream: null, question: null });
    expect((await call('POST', '/nl2pipeline/turn', {}, { text: 'which streams are there?' })).status).toBe(200);
    expect((await call('DELETE', '/v1/sessions/{id}', { id })).status).toBe(204);
    expect((await call('DELETE', '/v1/sessions/{id}', { id })).status).toBe(404);
  }, 60_000);

  it('edited SQL and runs of an answer (DuckDB)', async () => {
    const drafted = 'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings GROUP BY device_id';
    w.script.route({ intent: 'nl2sql', stream: 'sensor_readings', question: null }).draft(drafted);
    const id: string = (await call('POST', '/v1/sessions', {}, { target: 'duckdb' })).body.session_id;
    expect((await call('POST', '/v1/sessions/{id}/run', { id }, {})).status).toBe(400);
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, { sql: 'SELECT 1' })).status).toBe(400);
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, { text: 'average temperature per device', wait: true })).status).toBe(200);
    const edited = { sql: 'SELECT device_id, max(temperature) AS hottest FROM sensor_readings GROUP BY device_id', wait: true };
    expect((await call('POST', '/v1/sessions/{id}/turns', { id }, edited)).body).toMatchObject({ sql: edited.sql });
    expect((await call('POST', '/v1/sessions/{id}/run', { id }, { limit: 5 })).status).toBe(200);
    expect((await call('POST', '/v1/sessions/{id}/run', { id }, { limit: 0 })).status).toBe(400);
    expect((await call('POST', '/v1/sessions/{id}/run', { id: 'f'.repeat(32) }, {})).status).toBe(404);
  }); // prettier-ignore

  it('catalog, targets and probes', async () => {
    expect((await call('GET', '/v1/targets')).status).toBe(200);
    expect((await call('GET', '/v1/streams', { query: 'target=veloflux' })).status).toBe(200);
    expect((await call('GET', '/v1/streams', { query: 'target=nope' })).status).toBe(400);
    expect((await call('GET', '/v1/streams/{name}', { name: 'orders', query: 'target=duckdb' })).status).toBe(200);
    expect((await call('GET', '/v1/streams/{name}', { name: 'nope', query: 'target=duckdb' })).status).toBe(404);
    w.manager.failNext(10, 502);
    expect((await call('GET', '/v1/streams', { query: 'target=veloflux' })).status).toBe(502);
    w.manager.clearFailures();
    expect((await call('GET', '/health', {}, undefined, {})).status).toBe(200);
    expect((await call('GET', '/health/live', {}, undefined, {})).status).toBe(200);
  });

  it('examples: the confirmed questions listed and forgotten', async () => {
    // The first test confirmed REQUEST on veloFlux: it is the tenant's one example.
    const listed = await call('GET', '/v1/examples');
    expect(listed).toMatchObject({ status: 200, body: { examples: [{ request: REQUEST, target: 'veloflux' }] } });
    expect((await call('GET', '/v1/examples', {}, undefined, {})).status).toBe(401);
    const id: string = listed.body.examples[0].id;
    expect((await call('DELETE', '/v1/examples/{id}', { id })).status).toBe(204);
    expect((await call('DELETE', '/v1/examples/{id}', { id })).status).toBe(404);
  });

  it('glossary: entries, import and export, remember', async () => {
    const revenue = { kind: 'expr', table: 'orders', expr: { kind: 'arith', op: '*', left: { kind: 'column', ref: { column: 'quantity' } }, right: { kind: 'column', ref: { column: 'unit_price' } } } };
    expect((await call('POST', '/v1/glossary', {}, { term: 'revenue', means: revenue })).status).toBe(201);
    expect((await call('POST', '/v1/glossary', {}, { term: 'revenue', means: revenue })).status).toBe(409);
    expect((await call('POST', '/v1/glossary', {}, { term: '' })).status).toBe(400);
    expect((await call('GET', '/v1/glossary')).status).toBe(200);
    const shipped = { kind: 'value', table: 'orders', column: 'status', value: 'shipped' };
    expect((await call('PUT', '/v1/glossary/{term}', { term: 'revenue' }, { means: revenue })).status).toBe(200);
    expect((await call('PUT', '/v1/glossary/{term}', { term: 'nope' }, { means: shipped })).status).toBe(404);
    const exported = await call('GET', '/v1/glossary/export');
    expect(exported.status).toBe(200);
    const yaml = { authorization: `Bearer ${KEY}`, 'content-type': 'application/yaml' };
    expect((await call('POST', '/v1/glossary/import', {}, exported.body, yaml)).status).toBe(200);
    expect((await call('POST', '/v1/glossary/import', {}, 'terms:\n  x: [', yaml)).status).toBe(400);
    expect((await call('POST', '/v1/glossary/remember', {}, { session_id: 'f'.repeat(32), term: 'revenue' })).status).toBe(404);
    expect((await call('DELETE', '/v1/glossary/{term}', { term: 'revenue' })).status).toBe(204);
    expect((await call('DELETE', '/v1/glossary/{term}', { term: 'revenue' })).status).toBe(404);
  }); // prettier-ignore

  afterAll(() => {
    // Every documented operation was called and answered with one of its successes.
    const succeeded = new Set([...validator.seen].filter((s) => / 2\d\d$/.test(s)).map((s) => s.replace(/ \d+$/, '')));
    expect(validator.operations().filter((op) => !succeeded.has(op) && !SUCCEEDS_ELSEWHERE.has(op))).toEqual([]);
    expect(problems).toEqual([]);
  });
});

async function firstChunk(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}
