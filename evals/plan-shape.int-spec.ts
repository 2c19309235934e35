import { FakeManager, recordedExchange } from '@nl2p/testing';
import { logicalPlanShape, planDifference } from './src/plan-shape';
import { ReferencePlans } from './src/reference-plans';

// The veloFlux eval's judge: the engine's plans of two SQL texts, compared. Plans come from the
// fake Manager (which replays the recorded engine's planner) over real HTTP, and from recordings.
describe('veloFlux plan comparison', () => {
  const manager = new FakeManager();
  let plans: ReferencePlans;

  beforeAll(async () => {
    plans = new ReferencePlans(await manager.start());
  });
  afterAll(() => manager.stop());

  async function explain(sql: string): Promise<string> {
    const plan = await plans.planOf('probe', sql);
    if (!plan.ok) throw new Error(`the engine refused ${sql}: ${plan.error}`);
    return plan.explain;
  }
  const differ = async (a: string, b: string) => planDifference(await explain(a), await explain(b));

  it('reads the logical plan, top to bottom, without the sink', async () => {
    const shape = logicalPlanShape(
      await explain(
        "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 0 GROUP BY device_id, tumblingwindow('ss', 10)",
      ),
    );
    expect(shape).toEqual([
      { op: 'Project', info: 'fields=[avg(temperature); device_id]' },
      { op: 'Filter', info: 'predicate=temperature > 0' },
      { op: 'Aggregation', info: 'aggregates=[avg(temperature)], group_by=[device_id]' },
      { op: 'Window', info: 'kind=tumbling, unit=seconds, length=10' },
      { op: 'DataSource', info: 'source=sensor_stream' },
    ]);
    // Nothing of the temp pipeline is left behind.
    expect(manager.pipelines()).toEqual([]);
  });

  it('takes aliases, column order and the sink as the same query', async () => {
    expect(
      await differ(
        "SELECT device_id, avg(temperature) AS avg_temp, max(humidity) AS max_h FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)",
        "SELECT max(humidity) AS highest, avg(temperature) AS mean, device_id FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)",
      ),
    ).toBeNull();
    // A field access with or without its optional parentheses; computed once (a planner temp) or twice.
    expect(
      await differ(
        'SELECT vin, location->lat AS latitude FROM vehicle WHERE (location->lat) > 50',
        'SELECT vin, (location->lat) AS la FROM vehicle WHERE (location->lat) > 50',
      ),
    ).toBeNull();
    // Same SQL, recorded with an MQTT sink and with two sinks.
    expect(
      planDifference(
        recordedExchange('pipeline_explain_agent_mqtt').body,
        recordedExchange('pipeline_explain_full').body,
      ),
    ).toBeNull();
  });

  it('tells apart what the query computes: window, predicate, aggregate, grouping, columns', async () => {
    const base =
      "SELECT device_id, avg(temperature) AS t FROM sensor_stream WHERE humidity > 50 GROUP BY device_id, tumblingwindow('ss', 10)";
    const variants = [
      base.replace("tumblingwindow('ss', 10)", "tumblingwindow('ss', 20)"),
      base.replace("tumblingwindow('ss', 10)", "slidingwindow('ss', 10)"),
      base.replace('humidity > 50', 'humidity > 60'),
      base.replace('avg(temperature)', 'max(temperature)'),
      base.replace('SELECT device_id, ', 'SELECT ').replace('GROUP BY device_id, ', 'GROUP BY '),
      base.replace(' WHERE humidity > 50', ''),
    ];
    for (const variant of variants) {
      expect({ variant, difference: await differ(variant, base) }).toEqual({
        variant,
        difference: expect.stringMatching(/^plan step \d+: /),
      });
    }
    expect(await differ('SELECT * FROM vehicle', 'SELECT vin, speed FROM vehicle')).toMatch(/fields=\[\*\]|fields=/);
  });

  it('reports a reference the engine refuses in its own words', async () => {
    await expect(plans.planOf('bad', 'SELECT nosuch FROM sensor_stream')).resolves.toEqual({
      ok: false,
      error: expect.stringContaining("No schema bindings available for identifier 'nosuch"),
    });
    expect(manager.pipelines()).toEqual([]);
  });
});
