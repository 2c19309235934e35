import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { startMqttBroker, type TestBroker } from '@nl2p/testing';
import { useWorkflowStack } from '../support/workflow-stack';

const nl2sql = { intent: 'nl2sql' as const, stream: 'sensor_stream', question: null };
const SENSOR_COLUMNS = [
  { name: 'device_id', data_type: 'string' },
  { name: 'temperature', data_type: 'float64' },
  { name: 'humidity', data_type: 'float64' },
  { name: 'ts', data_type: 'int64' },
];

/**
 * Whole turns with the dry run as it ships (on, the source stream's own broker, the default time
 * limit): through the gateway and the six services to the validator, whose candidate runs on the
 * fake Manager's runtime fed over a real MQTT broker, and back to the answer the person sees.
 */
describe('a veloFlux turn with the dry run on (the default configuration)', () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startMqttBroker();
  });
  afterAll(async () => {
    await broker.close();
  });

  // Scenario stacks turn the dry run off (testEnv); this one puts the default back.
  const t = useWorkflowStack({ env: { VELOFLUX_DRY_RUN: 'true' } });
  const { manager } = t;

  beforeEach(() => {
    // The engine's sensor_stream read from MQTT, as a deployed one is: the dry run's temporary
    // stream goes on the same broker.
    manager.addStream('sensor_stream', SENSOR_COLUMNS, {
      type: 'mqtt',
      props: { broker_url: broker.url, topic: 'sensors/in', qos: 0 },
    });
  });

  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    expect(manager.streamNames().filter((name) => name.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  /** The engine calls about the dry run's stream and pipeline, in order, its temp name written `{dry}`. */
  function dryRunCalls(): string[] {
    const calls = manager.requests.map((r) => {
      const created = r.method === 'POST' && /^\/(streams|pipelines)$/.test(r.rawPath);
      const body = created ? (JSON.parse(r.body) as { id?: string; name?: string }) : {};
      return `${r.method} ${decodeURIComponent(r.rawPath)}${created ? ` ${body.id ?? body.name}` : ''}`;
    });
    const dry = /__nl2pipeline_tmp__\w+_dry/.exec(calls.find((c) => c.includes('_dry')) ?? '')?.[0];
    return dry ? calls.filter((c) => c.includes(dry)).map((c) => c.replace(dry, '{dry}')) : [];
  }

  it('a filter runs on sample rows before it is offered, and is offered with nothing to add', async () => {
    const sql = 'SELECT device_id, temperature FROM sensor_stream WHERE temperature > 30';
    t.script.route(nl2sql).draft(sql);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: 'readings above 30 degrees' });

    expect(view).toMatchObject({ status: 'waiting', interrupt: { type: 'need_confirm' }, sql, assumptions: [] });
    expect(view.attempts).toMatchObject({ attempt: 1, failures: [] });
    // It really ran: its own stream and pipeline created, started, its counters read, both deleted.
    const calls = dryRunCalls();
    const fromStart = calls.slice(calls.indexOf('POST /streams {dry}'));
    expect(fromStart.slice(0, 3)).toEqual([
      'POST /streams {dry}',
      'POST /pipelines {dry}',
      'POST /pipelines/{dry}/start',
    ]);
    expect(fromStart).toContain('GET /pipelines/{dry}/stats');
    expect(fromStart.slice(-2)).toEqual(['DELETE /pipelines/{dry}', 'DELETE /streams/{dry}']);
  });

  it('a window longer than the dry run may wait is offered with a sentence saying its output was not checked', async () => {
    const sql =
      "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 60)";
    t.script.route(nl2sql).draft(sql);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: 'average temperature per device every minute' });

    expect(view).toMatchObject({ status: 'waiting', interrupt: { type: 'need_confirm' }, sql });
    expect(view.assumptions).toEqual([
      'On sample rows this pipeline ran without a run-time error, but its output was not checked: ' +
        "a 60 s tumbling window can take up to 120 s to flush, more than the dry run's 25 s limit.",
    ]);
    expect(dryRunCalls()).toContain('POST /pipelines/{dry}/start');
  });
});
