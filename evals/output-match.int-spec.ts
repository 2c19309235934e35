import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { FakeManager, startMqttBroker, type TestBroker } from '@nl2p/testing';
import { EngineOutputJudge } from './src/output-match';

/**
 * The eval's output match, its whole path against the fake Manager over real HTTP and a real MQTT
 * broker: temporary streams on one input topic, pipelines with MQTT sinks, the warm-up, the feed,
 * the counters, the deletes. The fake's runtime counts rows but computes no values, so what it can
 * show is a runtime error and an honest "not measured"; real outputs need a real engine
 * (test/real-engine, RUN_VELOFLUX=1).
 */
jest.setTimeout(30_000);

describe('eval output match against the fake Manager', () => {
  const manager = new FakeManager();
  let broker: TestBroker;
  let judge: EngineOutputJudge;

  beforeAll(async () => {
    const [url, b] = await Promise.all([manager.start(), startMqttBroker()]);
    broker = b;
    judge = new EngineOutputJudge(url, broker.url, 15_000);
  });
  afterAll(async () => {
    await manager.stop();
    await broker.close();
  });
  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    expect(manager.streamNames().filter((n) => n.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  it('feeds both queries the same rows and says it measured nothing when the sink publishes nothing', async () => {
    const reference = 'SELECT device_id, temperature FROM sensor_stream WHERE temperature > 30';
    const candidate = 'SELECT device_id, temperature AS t FROM sensor_stream WHERE temperature > 30';
    const verdict = await judge.judge('vf-02', 'sensor_stream', reference, candidate);

    expect(verdict.match).toBeNull();
    expect(verdict.detail).toMatch(/^not measured: the engine counted \d+ row\(s\) out but its sink published none/);
    // Rows on both sides of 30, each sent twice; the warm-up `[]` is no row.
    expect(verdict.figures).toMatchObject({ rows_fed: expect.any(Number), reference_rows: 0, candidate_rows: 0 });
    expect(verdict.figures?.rows_fed).toBeGreaterThanOrEqual(4);
    const created = manager.requests.filter((r) => r.method === 'POST' && r.rawPath === '/pipelines');
    const bodies = created.map(
      (r) => JSON.parse(r.body) as { id: string; sql: string; sinks: { type: string; props: { topic: string } }[] },
    );
    expect(bodies.map((b) => b.sinks[0].type)).toEqual(['mqtt', 'mqtt']);
    expect(bodies.map((b) => b.sql)).toEqual([
      `SELECT device_id, temperature FROM ${TMP_PIPELINE_PREFIX}evalout_vf_02_0 WHERE temperature > 30`,
      `SELECT device_id, temperature AS t FROM ${TMP_PIPELINE_PREFIX}evalout_vf_02_1 WHERE temperature > 30`,
    ]);
  });

  it('fails a candidate that fails on every row when run (BETWEEN), with the engine’s words', async () => {
    const verdict = await judge.judge(
      'vf-x',
      'sensor_stream',
      'SELECT device_id FROM sensor_stream WHERE temperature >= 10 AND temperature <= 50',
      'SELECT device_id FROM sensor_stream WHERE temperature BETWEEN 10 AND 50',
    );
    expect(verdict).toMatchObject({
      match: false,
      detail:
        'failed on sample rows: Processing error: Failed to apply filter: Filter error: Failed to evaluate filter expression: ' +
        'Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)',
    });
  });
});
