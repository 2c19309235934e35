import { FakeManager } from './fake-manager';

// The fake's own contract behaviours, over raw fetch so no client logic hides a difference.
describe('FakeManager', () => {
  const fake = new FakeManager();
  let base: string;

  beforeAll(async () => {
    base = await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  async function call(method: string, path: string, body?: unknown, contentType = 'application/json') {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': contentType };
    }
    const res = await fetch(base + path, init);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }

  const create = (id: string, sql: string, sinks: unknown[] = [{ type: 'nop' }]) =>
    call('POST', '/pipelines', { id, sql, sinks });

  it('serves the seeded catalog', async () => {
    const functions = JSON.parse((await call('GET', '/functions')).text) as unknown[];
    expect(functions).toHaveLength(135);
    const syntax = JSON.parse((await call('GET', '/capabilities/syntax')).text) as { dialect: string };
    expect(syntax.dialect).toBe('StreamDialect');
    const ceiling = JSON.parse((await call('GET', '/functions/describe/CURRENT_TIMESTAMP')).text) as { name: string };
    expect(ceiling.name).toBe('now');
    expect(await call('GET', '/functions/describe/foo')).toMatchObject({ status: 404, text: 'function foo not found' });
  });

  it('answers axum-style body errors in plain text', async () => {
    expect(await call('POST', '/pipelines', { id: 'p', sql: 'SELECT 1' }, 'text/plain')).toMatchObject({
      status: 415,
      text: 'Expected request with `Content-Type: application/json`',
    });
    expect((await call('POST', '/pipelines', '{nope')).status).toBe(400);
    const missing = await call('POST', '/pipelines', { id: 'p' });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('missing field `sql`');
    expect(missing.type).toBe('text/plain; charset=utf-8');
  });

  it('validates in the §5.2 order', async () => {
    expect((await create(' ', 'SELECT a FROM s')).text).toBe('pipeline id must not be empty');
    expect((await create('p', ' ')).text).toBe('pipeline sql must not be empty');
    expect((await create('p', 'SELECT 1', [])).text).toBe('pipeline must define at least one sink');
    expect((await create('p', 'SELEC device_id FROM sensor_stream')).text).toBe(
      'parse pipeline p sql: Parse error: sql parser error: Expected an SQL statement, found: SELEC at Line: 1, Column 1',
    );
    expect((await create('p', 'SELECT a FROM s; SELECT b FROM s')).text).toMatch(/^parse pipeline p sql: /);
    // Parse and stream checks run before the duplicate check, so nothing needs to be stored yet.
    expect(await create('p', 'SELECT a FROM nosuch')).toMatchObject({
      status: 400,
      text: 'stream nosuch missing from storage',
    });
    expect(fake.pipelines()).toEqual([]);
  });

  it('keeps the record of a sink-config failure (orphan) until DELETE', async () => {
    const bad = await create('orphan', 'SELECT device_id FROM sensor_stream', [
      { type: 'mqtt', props: { topic: 't' } },
    ]);
    expect(bad).toMatchObject({ status: 400, text: 'mqtt sink requires broker_url' });
    expect(fake.pipelines()).toEqual(['orphan']);
    expect(JSON.parse((await call('GET', '/pipelines')).text)).toEqual([
      { id: 'orphan', status: 'stopped', flow_instance_id: 'default' },
    ]);
    expect((await call('GET', '/pipelines/orphan')).status).toBe(200);
    expect(await call('GET', '/pipelines/orphan/explain')).toMatchObject({
      status: 404,
      text: 'pipeline orphan not found',
    });
    expect(await create('orphan', 'SELECT device_id FROM sensor_stream')).toMatchObject({
      status: 409,
      text: 'pipeline orphan already exists',
    });
    expect(await call('DELETE', '/pipelines/orphan')).toMatchObject({ status: 200, text: 'pipeline orphan deleted' });
    expect(await call('DELETE', '/pipelines/orphan')).toMatchObject({ status: 404, text: 'pipeline orphan not found' });
  });

  it('rolls back planner failures', async () => {
    expect(await create('p', 'SELECT device_id FROM sensor_stream WHERE missing_col > 1')).toMatchObject({
      status: 400,
      text: "failed to create pipeline p: pipeline build error: Failed to convert filter predicate to scalar expression: Column not found: No schema bindings available for identifier 'missing_col",
    });
    expect((await create('p', 'SELECT sensor_stream.missing_col FROM sensor_stream')).text).toBe(
      'failed to create pipeline p: pipeline build error: Failed to compile expression: Column not found: sensor_stream.missing_col',
    );
    expect(fake.pipelines()).toEqual([]);
  });

  it.each([
    ['SELECT vin FROM vehicle WHERE location->lat > 10', 'Struct field access right side must be an identifier'],
    [
      "SELECT avg(temperature) AS temperature FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
      'SELECT alias `temperature` collides with an input column name',
    ],
    ['SELECT device_id FROM sensor_stream GROUP BY device_id', 'GROUP BY without aggregate functions is not supported'],
    [
      'SELECT device_id, count(*) FROM sensor_stream GROUP BY device_id HAVING count(*) > 1',
      'HAVING requires GROUP BY window',
    ],
    ['SELECT 1 AS a', 'No data source found in SELECT statement'],
    ['SELECT device_id FROM sensor_stream WHERE sum(temperature) > 0', "Unknown function: 'sum'"],
    ['SELECT count(*) FROM sensor_stream GROUP BY hoppingwindow(10)', "Unknown function: 'hoppingwindow'"],
  ])('rejects %s', async (sql, fragment) => {
    const res = await create('p', sql);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^failed to create pipeline p: pipeline build error: /);
    expect(res.text).toContain(fragment);
  });

  it.each([
    "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 0 GROUP BY device_id, tumblingwindow('ss', 10)",
    'SELECT * FROM vehicle WHERE (location->lat) > 10 AND isnull(vin) = false',
    "SELECT s.vin, upper(vin) AS v, tags[0] FROM vehicle AS s WHERE startswith(vin, 'W') ORDER BY v DESC LIMIT 5;",
    'SELECT sum(speed) FROM vehicle GROUP BY vin, statewindow(speed > 0, speed = 4) OVER (PARTITION BY vin)',
    "SELECT count(*) FROM sensor_stream GROUP BY slidingwindow('ss', 10, 5) HAVING count(*) > 3",
    'SELECT lag(temperature) OVER (PARTITION BY device_id) AS prev FROM sensor_stream',
  ])('accepts %s', async (sql) => {
    expect(await create('p', sql)).toMatchObject({ status: 201, text: '{"id":"p","status":"stopped"}' });
    const explain = await call('GET', '/pipelines/p/explain');
    expect(explain.type).toBe('text/plain; charset=utf-8');
    expect(explain.text).toMatch(/^Logical Plan Explain:\n- id +\| info/);
    expect(explain.text).toContain('\n\nPhysical Plan Explain:\n');
  });

  it('answers 409 busy while a command holds the lock, and on injection', async () => {
    fake.delayMs = 100;
    const [first, second] = await Promise.all([
      create('p', 'SELECT device_id FROM sensor_stream'),
      new Promise((r) => setTimeout(r, 20)).then(() => call('DELETE', '/pipelines/p')),
    ]);
    expect(first.status).toBe(201);
    expect(second).toMatchObject({ status: 409, text: 'pipeline p is busy processing another command' });
    fake.delayMs = 0;
    fake.busyNext('p');
    expect((await call('DELETE', '/pipelines/p')).status).toBe(409);
    expect((await call('DELETE', '/pipelines/p')).status).toBe(200);
  });

  it('scripts failures and records raw paths', async () => {
    fake.failNext(1, 502);
    expect(await call('GET', '/streams')).toMatchObject({ status: 502 });
    fake.failNext(1, 'reset');
    await expect(call('GET', '/streams')).rejects.toThrow();
    fake.rejectNextCreate(500, 'failed to persist pipeline p: disk full');
    expect(await create('p', 'SELECT device_id FROM sensor_stream')).toMatchObject({ status: 500 });
    expect(fake.createCount('p')).toBe(1);
    expect(fake.pipelines()).toEqual([]);
    await call('GET', '/streams/describe/a%2Fb?x=1');
    expect(fake.requests.map((r) => r.rawPath)).toEqual([
      '/streams',
      '/streams',
      '/pipelines',
      '/streams/describe/a%2Fb?x=1',
    ]);
  });

  it('follows axum for unknown routes and methods', async () => {
    expect(await call('GET', '/nosuch')).toMatchObject({ status: 404, text: '' });
    expect(await call('DELETE', '/functions')).toMatchObject({ status: 405, text: '' });
    expect(await call('GET', '/streams/describe/nosuch')).toMatchObject({
      status: 404,
      text: 'stream nosuch not found',
    });
  });

  it('serves streams added by tests', async () => {
    fake.addStream('alpha', [{ name: 'x', data_type: 'int64' }]);
    const names = (JSON.parse((await call('GET', '/streams')).text) as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(['alpha', 'sensor_stream', 'vehicle']);
    expect((await create('p', 'SELECT x FROM alpha')).status).toBe(201);
    expect(JSON.parse((await call('GET', '/pipelines/p')).text)).toMatchObject({
      id: 'p',
      status: 'stopped',
      spec: { flow_instance_id: 'default', sources: [], options: { data_channel_capacity: 16 } },
    });
  });
});
