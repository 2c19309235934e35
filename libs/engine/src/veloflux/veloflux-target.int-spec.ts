import { tmpPipelineId } from '@nl2p/envelope';
import { FakeManager } from '@nl2p/testing';
import { ManagerClient, ManagerError, ManagerUnavailableError, type ManagerClientOptions } from '../manager-client';
import type { EngineCall } from '../port';
import { VelofluxTarget } from './veloflux-target';

// The real client and target over real HTTP against the contract fake.
describe('VelofluxTarget against the FakeManager', () => {
  const fake = new FakeManager();
  let baseUrl: string;
  let calls: EngineCall[];

  /** The product's default sink (config `SINK_*`): what the person's pipeline writes to. */
  const SINK = { type: 'mqtt', props: { broker_url: 'tcp://127.0.0.1:1883', topic: '/out', qos: 0 } };
  const tmp = (attempt = 1): string => tmpPipelineId('0123456789abcdef0123456789abcdef', 1, attempt);

  function target(options: Partial<ManagerClientOptions> = {}): { target: VelofluxTarget; client: ManagerClient } {
    const client = new ManagerClient({
      baseUrl,
      timeoutMs: 2_000,
      backoffMs: 1,
      onCall: (call) => calls.push(call),
      ...options,
    });
    return { target: new VelofluxTarget(client), client };
  }

  beforeAll(async () => {
    baseUrl = await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    calls = [];
  });

  describe('grounding reads', () => {
    it('loads the catalog: functions deduplicated, windows added, syntax flattened, dialect notes', async () => {
      const catalog = await target().target.loadCatalog();
      expect(catalog.dialect).toBe('veloflux');
      // 135 entries with `isnull` twice, plus four window pseudo-functions.
      expect(catalog.functions.filter((f) => f.kind !== 'window')).toHaveLength(134);
      expect(catalog.functions.filter((f) => f.name === 'isnull')).toHaveLength(1);
      expect(catalog.functions.find((f) => f.name === 'round')?.signature).toBe('round(x, [precision])');
      expect(catalog.functions.find((f) => f.name === 'coalesce')?.signature).toBe('coalesce(values...)');
      expect(catalog.functions.find((f) => f.name === 'pow')?.aliases).toEqual(['power']);
      expect(catalog.syntax.filter((r) => r.id === 'window')).toHaveLength(1);
      expect(catalog.syntax.find((r) => r.id === 'select.group_by')).toMatchObject({ status: 'partial' });
      expect(catalog.syntax.find((r) => r.id === 'expr.cast')).toMatchObject({ status: 'unsupported' });
      expect(catalog.dialectNotes.length).toBeGreaterThan(10);
      expect(calls.map((c) => c.route).sort()).toEqual(['/capabilities/syntax', '/functions']);
    });

    it('lists streams with their columns', async () => {
      const streams = await target().target.listStreams();
      expect(streams.map((s) => s.name)).toEqual(['sensor_stream', 'vehicle']);
      expect(streams[0]?.columns.map((c) => c.name)).toEqual(['device_id', 'temperature', 'humidity', 'ts']);
    });

    it('describes a known stream and answers null for an unknown one', async () => {
      const { target: t } = target();
      expect((await t.describeStream('vehicle'))?.columns.find((c) => c.name === 'location')).toMatchObject({
        data_type: 'struct',
      });
      expect(await t.describeStream('nosuch')).toBeNull();
      expect(calls.at(-1)).toMatchObject({ method: 'GET', route: '/streams/describe/:name', status: 404, retries: 0 });
    });

    it('sends a hostile stream name as one encoded segment', async () => {
      const name = '../pipelines?x=1';
      fake.addStream(name, [{ name: 'v', data_type: 'int64' }]);
      const info = await target().target.describeStream(name);
      expect(info).toEqual({ name, columns: [{ name: 'v', data_type: 'int64' }] });
      expect(fake.requests.map((r) => r.rawPath)).toEqual(['/streams/describe/..%2Fpipelines%3Fx%3D1']);
    });
  });

  describe('validate / explain / cleanup', () => {
    it('keeps the temp pipeline after a successful validate until cleanup', async () => {
      const { target: t } = target();
      const id = tmp();
      const sql =
        "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 0 GROUP BY device_id, tumblingwindow('ss', 10)";

      await expect(t.validate(sql, id, SINK)).resolves.toEqual({ ok: true, tmpId: id });
      expect(fake.pipelines()).toEqual([id]);
      // The temp pipeline is the request the person will apply, under the temp id.
      expect(JSON.parse(fake.requests[0]?.body ?? '')).toEqual(t.buildPipelineRequest(sql, id, SINK));

      const plan = await t.explain(id);
      expect(plan.startsWith('Logical Plan Explain:')).toBe(true);
      expect(plan).toContain('Physical Plan Explain:');
      expect(plan).toContain('source=sensor_stream');
      expect(plan).toContain('predicate=temperature > 0');
      // …so its plan shows the person's sink and output, not a validation stand-in.
      expect(plan).toContain(`sink_id=${id}_sink_0, connector=mqtt, encoder=json, output.omit_if_empty=true`);
      expect(plan).not.toContain('connector=nop');

      await t.cleanup(id);
      expect(fake.pipelines()).toEqual([]);
      // A second cleanup (e.g. a re-delivered job) finds nothing, which is fine.
      await expect(t.cleanup(id)).resolves.toBeUndefined();
      expect(calls.map((c) => `${c.method} ${c.route} ${c.status}`)).toEqual([
        'POST /pipelines 201',
        'GET /pipelines/:id/explain 200',
        'DELETE /pipelines/:id 200',
        'DELETE /pipelines/:id 404',
      ]);
    });

    it('lists the temp pipelines the engine stores, and only those', async () => {
      const { target: t, client } = target();
      await t.validate('SELECT device_id FROM sensor_stream', tmp(1), SINK);
      await t.validate('SELECT device_id FROM sensor_stream', tmp(2), SINK);
      await client.createPipeline({
        id: 'a_persons_pipeline',
        sql: 'SELECT device_id FROM sensor_stream',
        sinks: [{ type: 'nop' }],
      });
      expect((await t.listTmpPipelines()).sort()).toEqual([tmp(1), tmp(2)].sort());
    });

    it('judges the SQL with a nop sink when the engine refuses the sink settings, and says why', async () => {
      const { target: t } = target();
      const id = tmp();
      const sql = 'SELECT device_id FROM sensor_stream';
      const result = await t.validate(sql, id, { type: 'mqtt', props: { topic: '/out' } });
      expect(result).toEqual({ ok: true, tmpId: id, sinkError: 'mqtt sink requires broker_url' });
      // The refused create kept a record (recorded orphan quirk); it was deleted before the retry.
      expect(fake.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual([
        'POST /pipelines',
        `DELETE /pipelines/${id}`,
        'POST /pipelines',
      ]);
      expect(JSON.parse(fake.requests[2]?.body ?? '').sinks).toEqual([{ type: 'nop' }]);
      expect(await t.explain(id)).toContain('connector=nop');
    });

    it('takes the 500 for sink props of the wrong type as a verdict, not an outage', async () => {
      const { target: t } = target();
      const id = tmp();
      const sink = { type: 'mqtt', props: { broker_url: 'tcp://127.0.0.1:1883', topic: '/o', qos: '1' } };
      const result = await t.validate('SELECT device_id FROM sensor_stream', id, sink);
      expect(result).toMatchObject({ ok: true, tmpId: id, sinkError: expect.stringContaining('sink props: decode') });
      expect(calls[0]).toMatchObject({ method: 'POST', route: '/pipelines', status: 500, retries: 0 });
    });

    it('still fails SQL the engine rejects when the sink is refused too', async () => {
      const id = tmp();
      const result = await target().target.validate('SELECT missing_col FROM sensor_stream', id, {
        type: 'kafka',
        props: {},
      });
      expect(result).toMatchObject({ ok: false, kind: 'unknown_column' });
      expect(fake.pipelines()).toEqual([]);
    });

    it('returns the engine text for an unknown column, leaves nothing behind, and does not retry', async () => {
      const id = tmp();
      const result = await target().target.validate('SELECT missing_col FROM sensor_stream', id, SINK);
      expect(result).toEqual({
        ok: false,
        tmpId: id,
        kind: 'unknown_column',
        error: `failed to create pipeline ${id}: pipeline build error: Failed to compile expression: Column not found: No schema bindings available for identifier 'missing_col`,
      });
      expect(fake.pipelines()).toEqual([]);
      expect(fake.createCount(id)).toBe(1);
      expect(calls[0]).toMatchObject({ method: 'POST', status: 400, retries: 0 });
    });

    it.each([
      ['SELEC device_id FROM sensor_stream', 'syntax', 'parse pipeline '],
      [
        "SELECT avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('mm', 1)",
        'syntax',
        'unsupported time unit `mm`',
      ],
      ['SELECT a FROM nosuch_stream', 'unknown_stream', 'stream nosuch_stream missing from storage'],
      ['SELECT foo(temperature) FROM sensor_stream', 'unknown_function', "Unknown function: 'foo'"],
      ['SELECT location->alt FROM vehicle', 'unknown_column', 'field `alt` not found in struct (available: lat, lon)'],
      [
        "SELECT device_id, avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)",
        'semantic',
        "SELECT expression 'device_id' must be an aggregate or appear in GROUP BY",
      ],
    ])('classifies %s as %s', async (sql, kind, fragment) => {
      const result = await target().target.validate(sql, tmp(), SINK);
      expect(result).toMatchObject({ ok: false, kind });
      expect(result.ok === false && result.error).toContain(fragment);
      expect(fake.pipelines()).toEqual([]);
    });

    it('deletes the record a failed create kept (orphan quirk)', async () => {
      const id = tmp();
      fake.failAfterStoreNextCreate();
      const result = await target().target.validate('SELECT device_id FROM sensor_stream', id, SINK);
      // The kept record is deleted before anything else; the SQL is then judged with a nop sink.
      expect(result).toEqual({ ok: true, tmpId: id, sinkError: 'mqtt sink requires broker_url' });
      expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'DELETE', 'POST']);
      expect(fake.pipelines()).toEqual([id]);
    });

    it('replaces a stale temp pipeline of the same id built from other SQL', async () => {
      const { target: t } = target();
      const id = tmp();
      await t.validate('SELECT device_id FROM sensor_stream', id, SINK);
      const again = await t.validate('SELECT device_id, temperature FROM sensor_stream', id, SINK);
      expect(again).toEqual({ ok: true, tmpId: id });
      expect(fake.pipelines()).toEqual([id]);
      expect(fake.createCount(id)).toBe(3);
      expect(await t.explain(id)).toContain('schema=[device_id, temperature]');
    });

    it('reuses the temp pipeline a crashed run of the same attempt built, creating it once', async () => {
      const { target: t } = target();
      const id = tmp();
      const sql = 'SELECT device_id FROM sensor_stream';
      await t.validate(sql, id, SINK);
      // The worker died here; the re-delivered job validates the same SQL under the same id.
      await expect(t.validate(sql, id, SINK)).resolves.toEqual({ ok: true, tmpId: id });
      expect(fake.pipelines()).toEqual([id]);
      expect(fake.createCount(id)).toBe(2);
      expect(fake.createdCount(id)).toBe(1);
    });

    it('replaces the orphan a failed create stored under the same id', async () => {
      const { target: t, client } = target();
      const id = tmp();
      const sql = 'SELECT device_id FROM sensor_stream';
      // A create that failed after storing, whose worker died before deleting: the orphan stays.
      fake.failAfterStoreNextCreate();
      await expect(client.createPipeline({ id, sql, sinks: [{ type: 'nop' }] })).rejects.toMatchObject({ status: 400 });
      expect(fake.pipelines()).toEqual([id]);
      await expect(t.validate(sql, id, SINK)).resolves.toEqual({ ok: true, tmpId: id });
      expect(fake.createdCount(id)).toBe(1);
      expect(await t.explain(id)).toContain('schema=[device_id]');
    });

    it('retries the busy lock', async () => {
      const id = tmp();
      fake.busyNext(id, 2);
      await expect(target().target.validate('SELECT device_id FROM sensor_stream', id, SINK)).resolves.toMatchObject({
        ok: true,
      });
      expect(calls[0]).toMatchObject({ method: 'POST', route: '/pipelines', status: 201, retries: 2 });
    });

    it('refuses ids without the temp prefix before sending anything', async () => {
      const { target: t } = target();
      await expect(t.validate('SELECT device_id FROM sensor_stream', 'sensor_avg', SINK)).rejects.toThrow(/refusing/);
      await expect(t.cleanup('sensor_avg')).rejects.toThrow(/refusing/);
      expect(fake.requests).toEqual([]);
      expect(calls).toEqual([]);
    });

    it('throws a non-verdict rejection after a best-effort delete', async () => {
      const id = tmp();
      fake.rejectNextCreate(422, 'Failed to deserialize the JSON body into the target type: missing field `sql`');
      const err = await target()
        .target.validate('SELECT device_id FROM sensor_stream', id, SINK)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManagerError);
      expect(err).toMatchObject({ status: 422, unavailable: false });
      expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'DELETE']);
    });

    it('reports explain of an unknown pipeline as a 404 ManagerError', async () => {
      await expect(target().target.explain(tmp())).rejects.toMatchObject({
        status: 404,
        body: `pipeline ${tmp()} not found`,
      });
    });
  });

  describe('outages', () => {
    it('retries 5xx and succeeds, counting retries', async () => {
      fake.failNext(2, 503);
      await expect(target().target.listStreams()).resolves.toHaveLength(2);
      expect(fake.requests).toHaveLength(3);
      expect(calls).toEqual([expect.objectContaining({ method: 'GET', route: '/streams', status: 200, retries: 2 })]);
    });

    it('retries a reset connection', async () => {
      fake.failNext(1, 'reset');
      await expect(target().target.describeStream('sensor_stream')).resolves.not.toBeNull();
      expect(calls[0]).toMatchObject({ status: 200, retries: 1 });
    });

    it('gives up with ManagerUnavailableError on persistent 5xx', async () => {
      fake.failNext(10, 500);
      const err = await target({ retries: 3 })
        .target.listStreams()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManagerUnavailableError);
      expect(err).toMatchObject({ unavailable: true, status: 500, route: '/streams' });
      expect(fake.requests).toHaveLength(4);
      expect(calls).toEqual([expect.objectContaining({ status: 500, retries: 3 })]);
    });

    it('treats timeouts as an outage', async () => {
      fake.delayMs = 300;
      const err = await target({ timeoutMs: 50, retries: 1 })
        .target.listStreams()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManagerUnavailableError);
      expect(err).toMatchObject({ status: null, message: 'GET /streams failed: timed out' });
      expect(calls[0]).toMatchObject({ status: null, retries: 1 });
    });

    it('reports an unreachable engine as unavailable', async () => {
      const closed = new FakeManager();
      const closedUrl = await closed.start();
      await closed.stop();
      const err = await new ManagerClient({ baseUrl: closedUrl, retries: 1, backoffMs: 1 })
        .listStreams()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManagerUnavailableError);
      expect(err).toMatchObject({
        status: null,
        message: expect.stringMatching(/^GET \/streams failed: network error/),
      });
      expect((err as Error).cause).toBeDefined();
    });

    it('attempts the cleanup after an outage mid-validate and rethrows the original failure', async () => {
      const id = tmp();
      fake.failNext(2, 503);
      const err = await target({ retries: 0 })
        .target.validate('SELECT device_id FROM sensor_stream', id, SINK)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ManagerUnavailableError);
      // The failed best-effort DELETE must not mask the create's error.
      expect(err).toMatchObject({ method: 'POST', route: '/pipelines', status: 503 });
      expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'DELETE']);
    });
  });

  describe('buildPipelineRequest', () => {
    it('builds a body the engine accepts as is', async () => {
      const { target: t, client } = target();
      const body = t.buildPipelineRequest('SELECT device_id FROM sensor_stream', 'sensor_out', {
        type: 'mqtt',
        props: { broker_url: 'tcp://127.0.0.1:1883', topic: '/out', qos: 0 },
      });
      expect(body).toEqual({
        id: 'sensor_out',
        sql: 'SELECT device_id FROM sensor_stream',
        sinks: [
          {
            type: 'mqtt',
            props: { broker_url: 'tcp://127.0.0.1:1883', topic: '/out', qos: 0 },
            output: { mode: 'full', omit_if_empty: true },
          },
        ],
        options: { eventtime: { enabled: false } },
      });
      await expect(client.createPipeline(body as never)).resolves.toEqual({ id: 'sensor_out', status: 'stopped' });
      const stored = (await client.getPipeline('sensor_out')).spec.sinks[0];
      expect(stored?.props).toEqual({ broker_url: 'tcp://127.0.0.1:1883', qos: 0, topic: '/out' });
      expect(stored?.output).toEqual({ mode: 'full', omit_if_empty: true });
      // The engine empty-suppresses this sink (what `omit_if_empty` is for).
      expect(await client.explainPipeline('sensor_out')).toMatch(
        /└─PhysicalEmptySuppress_\d+ +\| sink_id=sensor_out_sink_0, omit_if_empty=true/,
      );
    });
  });
});
