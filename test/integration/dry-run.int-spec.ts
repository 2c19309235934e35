import { loadConfig } from '@nl2p/config';
import { newSessionEnvelope, TMP_PIPELINE_PREFIX, type Envelope } from '@nl2p/envelope';
import { Engines, validatorNodes, type Grounding } from '@nl2p/nodes';
import { parseQueryPlan, type QueryPlan } from '@nl2p/query-plan';
import { FakeManager, startMqttBroker, type TestBroker } from '@nl2p/testing';
import type { NodeRunContext } from '@nl2p/workflow-runtime';

/**
 * The validator's dry run against the fake Manager, whose started pipelines read a real MQTT
 * broker the dry run publishes sample rows to. The validate node runs as the workflow runs it;
 * drafts reach it here directly, as a draft the local check lets through would.
 */
jest.setTimeout(20_000);

describe('validate: the dry run on sample rows (veloFlux)', () => {
  const manager = new FakeManager();
  let broker: TestBroker;
  let engines: Engines;
  const ctx: NodeRunContext = {
    emit: async () => undefined,
    signal: new AbortController().signal,
    checkpoint: async (e) => e,
  };
  const validate = (e: Envelope) => {
    const handler = validatorNodes({ engines, grounding: {} as Grounding }).validate;
    if (!handler) throw new Error('no validate node');
    return handler(e, ctx);
  };

  beforeAll(async () => {
    const [managerUrl, b] = await Promise.all([manager.start(), startMqttBroker()]);
    broker = b;
    engines = new Engines(
      loadConfig({
        TARGET: 'veloflux',
        VELOFLUX_URL: managerUrl,
        VELOFLUX_DRY_RUN_LIMIT_MS: '6000',
        ENGINE_BACKOFF_MS: '10',
      }),
    );
  });
  afterAll(async () => {
    await manager.stop();
    await broker.close();
  });
  beforeEach(() => {
    manager.reset();
    manager.addStream('orders', [
      { name: 'order_id', data_type: 'string' },
      { name: 'amount', data_type: 'float64' },
      { name: 'region', data_type: 'string' },
    ], { type: 'mqtt', props: { broker_url: broker.url, topic: 'orders/in', qos: 0 } });
  }); // prettier-ignore
  afterEach(() => {
    // Whatever the dry run decided, nothing temporary of it is left on the engine.
    expect(manager.streamNames().filter((n) => n.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    expect(manager.pipelines().filter((id) => id.endsWith('_dry'))).toEqual([]);
  });

  function envelope(sql: string, plan: QueryPlan | null = null): Envelope {
    const e = newSessionEnvelope({
      sessionId: '0123456789abcdef0123456789abcdef',
      target: 'veloflux',
      maxAttempts: 3,
      sink: { type: 'nop', props: {} },
      activeStream: 'orders',
      deployment: '0a1b2c3d',
    });
    return {
      ...e,
      turn_id: 1,
      node: 'validate',
      status: 'running',
      stream_schema: { name: 'orders', columns: [] },
      draft: { ...e.draft, sql, plan },
      validation: { ...e.validation, attempt: 1 },
    };
  }

  it('turns a BETWEEN that fails on every row into an engine failure with the engine’s own last_error', async () => {
    const sql = 'SELECT order_id, amount FROM orders WHERE amount BETWEEN 10 AND 50';
    const started = Date.now();
    const out = await validate(envelope(sql));
    expect(out.validation).toMatchObject({ ok: false, error_stage: 'engine', tmp_pipeline_id: null });
    expect(out.validation.error).toBe(
      'the engine accepted the pipeline, but it failed on sample rows when run: ' +
        'Processing error: Failed to apply filter: Filter error: Failed to evaluate filter expression: ' +
        'Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)',
    );
    // The validated temp pipeline goes too: the attempt failed.
    expect(manager.pipelines()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('passes the comparisons the compiler writes instead, with nothing to say', async () => {
    const plan = parseQueryPlan({ source: 'orders', joins: [], distinct: false, group_by: [], time_bucket: null, window: null,
      having: [], order_by: [], limit: null,
      select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'order_id' } }, alias: null }],
      where: { kind: 'in', column: { column: 'region' }, values: [{ kind: 'string', value: 'eu-west' }, { kind: 'string', value: 'eu-north' }] },
    }); // prettier-ignore
    const sql = "SELECT order_id FROM orders WHERE region = 'eu-west' OR region = 'eu-north'";
    const out = await validate(envelope(sql, plan));
    expect(out.validation).toMatchObject({ ok: true, error: null });
    expect(out.draft.assumptions).toEqual([]);
    await engines.for('veloflux').cleanup(out.validation.tmp_pipeline_id ?? '');
  });

  it('warns when rows meeting the conditions go in and nothing comes out', async () => {
    // count(DISTINCT …) is accepted at create and explain and never emits when run (live engine;
    // the local check refuses it in a turn, so it reaches the node here directly).
    const plan = parseQueryPlan({ source: 'orders', joins: [], distinct: false, group_by: [{ column: 'region' }], time_bucket: null,
      window: null, having: [], order_by: [], limit: null, where: null,
      select: [
        { kind: 'value', expr: { kind: 'column', ref: { column: 'region' } }, alias: null },
        { kind: 'aggregate', aggregate: { fn: 'count', arg: { kind: 'column', ref: { column: 'order_id' } }, distinct: true }, alias: 'n' },
      ],
    }); // prettier-ignore
    const sql = 'SELECT region, count(DISTINCT order_id) AS n FROM orders GROUP BY region';
    const out = await validate(envelope(sql, plan));
    expect(out.validation.ok).toBe(true);
    expect(out.draft.assumptions).toEqual([
      expect.stringMatching(
        /^On sample rows this pipeline emitted nothing: \d+ rows in, \d+ of them meeting its conditions, none out\./,
      ),
    ]);
    await engines.for('veloflux').cleanup(out.validation.tmp_pipeline_id ?? '');
  });

  it('says so when it cannot wait for a window to flush within its limit', async () => {
    const sql = "SELECT region, count(*) AS n FROM orders GROUP BY region, tumblingwindow('ss', 60)";
    const out = await validate(envelope(sql));
    expect(out.validation.ok).toBe(true);
    expect(out.draft.assumptions).toEqual([
      expect.stringContaining('a 60 s tumbling window can take up to 120 s to flush'),
    ]);
    await engines.for('veloflux').cleanup(out.validation.tmp_pipeline_id ?? '');
  });

  it('says it did not run when the stream is not read from MQTT and no broker is set', async () => {
    manager.addStream('orders', [{ name: 'order_id', data_type: 'string' }]);
    const out = await validate(envelope('SELECT order_id FROM orders'));
    expect(out.validation.ok).toBe(true);
    expect(out.draft.assumptions).toEqual([
      expect.stringMatching(/^Not run on sample rows: stream orders is not read from MQTT/),
    ]);
    await engines.for('veloflux').cleanup(out.validation.tmp_pipeline_id ?? '');
  });
});
