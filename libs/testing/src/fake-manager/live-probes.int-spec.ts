import { LIVE_CREATE_VERDICTS, PROBE_STREAM } from '../live-engine';
import { FakeManager } from './fake-manager';

// The fake against the live engine's create verdicts beyond the recordings (live-engine.ts):
// same status, and for a refusal the engine's own text.
describe('FakeManager answers the live create probes like the engine', () => {
  const fake = new FakeManager();
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await fake.start();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    fake.addStream(PROBE_STREAM.name, PROBE_STREAM.columns);
  });

  it.each(LIVE_CREATE_VERDICTS)('$sql → $status', async ({ sql, status, body }) => {
    const res = await fetch(`${baseUrl}/pipelines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'p_kw', sql, sinks: [{ type: 'nop' }] }),
    });
    const text = await res.text();
    expect({ status: res.status, body: status === 201 ? undefined : text }).toEqual({ status, body });
  });
});
