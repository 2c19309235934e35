import { connectAsync, type MqttClient } from 'mqtt';
import { LIVE_RUNTIME_ERRORS } from '../live-engine';
import { startMqttBroker, type TestBroker } from '../mqtt-broker';
import { FakeManager } from './fake-manager';

interface Stat {
  processor_id: string;
  stats: { records_in: number; records_out: number; error_count: number; last_error: string | null };
}

// Started pipelines of the fake, fed rows over a real MQTT broker, against what the live engine did.
describe('FakeManager runtime: started pipelines fed over MQTT', () => {
  const fake = new FakeManager({ seedStreams: false });
  let base: string;
  let broker: TestBroker;
  let publisher: MqttClient;

  beforeAll(async () => {
    [base, broker] = await Promise.all([fake.start(), startMqttBroker()]);
    publisher = await connectAsync(broker.url.replace('tcp://', 'mqtt://'));
  });
  afterAll(async () => {
    await publisher.endAsync(true);
    await fake.stop();
    await broker.close();
  });
  beforeEach(() => fake.reset());

  async function call(method: string, path: string, body?: unknown) {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const res = await fetch(base + path, init);
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text;
  }

  async function run(sql: string, rows: Record<string, unknown>[], waitMs = 0): Promise<Stat[]> {
    await call('POST', '/streams', {
      name: 'orders',
      type: 'mqtt',
      schema: { type: 'json', props: { columns: [
        { name: 'order_id', data_type: 'string' }, { name: 'amount', data_type: 'float64' }, { name: 'region', data_type: 'string' },
      ] } },
      props: { broker_url: broker.url, topic: 'orders/in' },
    }); // prettier-ignore
    await call('POST', '/pipelines', { id: 'p', sql, sinks: [{ type: 'nop' }] });
    await call('POST', '/pipelines/p/start');
    for (const row of rows) await publisher.publishAsync('orders/in', JSON.stringify(row));
    const deadline = Date.now() + 5_000 + waitMs;
    for (;;) {
      const stats = JSON.parse(await call('GET', '/pipelines/p/stats')) as Stat[];
      const source = stats.find((s) => s.processor_id.startsWith('PhysicalDataSource'));
      if ((source?.stats.records_in ?? 0) >= rows.length && Date.now() >= deadline - 5_000) return stats;
      if (Date.now() > deadline) throw new Error(`rows did not arrive: ${JSON.stringify(stats)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const stage = (stats: Stat[], prefix: string) => stats.find((s) => s.processor_id.startsWith(prefix))?.stats;
  const rows = [
    { order_id: 'o1', amount: 5, region: 'eu-west' },
    { order_id: 'o2', amount: 20, region: 'eu-north' },
    { order_id: 'o3', amount: 60, region: 'us-east' },
  ];

  it.each(LIVE_RUNTIME_ERRORS)('$sql: the live engine said $last_error', async ({ sql, last_error }) => {
    const stats = await run(sql, rows);
    const filter = stage(stats, 'PhysicalFilter');
    if (last_error) {
      expect(filter).toEqual({ records_in: 3, records_out: 0, error_count: 3, last_error });
      expect(stage(stats, 'PhysicalEncoder')?.records_in ?? 0).toBe(0);
    } else {
      // o2 is the one order from 10 to 50; o1 and o2 are in the two regions.
      const expected = sql.includes('amount') ? 1 : 2;
      expect(filter).toMatchObject({ records_in: 3, records_out: expected, error_count: 0, last_error: null });
      const encoder = stage(stats, 'PhysicalEncoder') ?? stage(stats, 'PhysicalStreamingEncoder');
      expect(encoder?.records_in).toBe(expected);
    }
  });

  it('applies WHERE beside an aggregation after it, to the aggregated row (the group’s last row), as the real engine did', async () => {
    const stats = await run('SELECT region, count(*) AS n FROM orders WHERE amount > 10 GROUP BY region', rows);
    expect(stage(stats, 'PhysicalFilter')).toMatchObject({ records_in: 3, records_out: 2, error_count: 0 });
  });

  it('flushes a tumbling window when it closes', async () => {
    const stats = await run(
      "SELECT region, count(*) AS n FROM orders GROUP BY region, tumblingwindow('ss', 1)",
      rows,
      2_100,
    );
    const out = stage(stats, 'PhysicalEncoder')?.records_in ?? stage(stats, 'PhysicalStreamingEncoder')?.records_in;
    expect(out).toBe(3);
  });

  it('lets a stream go once the pipeline reading it is deleted', async () => {
    await run('SELECT order_id FROM orders', rows.slice(0, 1));
    await call('DELETE', '/pipelines/p');
    await call('DELETE', '/streams/orders');
    expect(fake.pipelines()).toEqual([]);
    expect(fake.streamNames()).toEqual([]);
  });
});
