// The linker's fixtures hold the demo schema as the DuckDB catalog presents it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { demoSchema } from '../../../linking/src/testing/fixtures';
import { QueryPlan } from '@nl2p/query-plan';
import { targetProfile } from '@nl2p/engine';
import { readRequest } from '../reading';
import { compilePlan } from '../plan-drafting';
import { checkEdit } from './check-edit';
import { contradictions } from './contradictions';
import { editPlan } from './edit';

const SCHEMA = demoSchema();
const OPTIONS = { linking: true, mode: 'plan' as const, trustLinks: true };
const planOf = (request: string) => QueryPlan.parse(readRequest(request, SCHEMA, OPTIONS).plan);
const sqlAfter = (request: string, feedback: string) => {
  const edited = editPlan(planOf(request), feedback, SCHEMA);
  if (!edited.ok) return { unread: edited.unread };
  const compiled = compilePlan(edited.plan, SCHEMA.tables, targetProfile('duckdb'));
  return compiled.ok ? compiled.sql : compiled.errors;
};

// Each rule's examples: the request, the feedback, the SQL after the edit.
const EXAMPLES: Record<string, [string, string, string][]> = {
  'replace-threshold': [
    [
      'average temperature per device, only above 30',
      'use 35 degrees instead',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 35 GROUP BY device_id',
    ],
    [
      'average temperature per device, only above 30',
      'at least 28',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature >= 28 GROUP BY device_id',
    ],
  ],
  'add-grouping': [
    [
      'average temperature',
      'also per device',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id',
    ],
  ],
  'add-condition': [
    [
      'average temperature per device',
      'only dev-01 and dev-03',
      "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE device_id IN ('dev-01', 'dev-03') GROUP BY device_id",
    ],
    [
      'average temperature per device',
      'exclude dev-02',
      "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE device_id NOT IN ('dev-02') GROUP BY device_id",
    ],
  ],
  'drop-column': [
    [
      'average temperature and humidity per device',
      'drop the humidity',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id',
    ],
    [
      'average temperature per device, only above 30',
      'remove the temperature filter',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id',
    ],
  ],
  'set-order': [
    [
      'average temperature per device',
      'sort by newest',
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings GROUP BY device_id ORDER BY max(ts) DESC',
    ],
    [
      'total quantity per product',
      'sort by quantity descending',
      'SELECT product, sum(quantity) AS sum_quantity FROM orders GROUP BY product ORDER BY sum_quantity DESC',
    ],
  ],
};

describe('feedback edits the plan', () => {
  for (const [rule, examples] of Object.entries(EXAMPLES)) {
    it.each(examples)(`${rule}: %s + "%s"`, (request, feedback, sql) => {
      expect(sqlAfter(request, feedback)).toBe(sql);
    });
  }

  it('several edits in one feedback apply in turn', () => {
    expect(sqlAfter('average temperature per device, only above 30', 'use 25 instead and sort by newest')).toBe(
      'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 25 GROUP BY device_id ORDER BY max(ts) DESC',
    );
  });

  it('a clause no rule reads leaves the whole feedback to the model', () => {
    expect(sqlAfter('average temperature per device, only above 30', 'use 25 instead and make it prettier')).toEqual({
      unread: ['make it prettier'],
    });
    expect(sqlAfter('average temperature per device', 'the peak rather than the mean')).toEqual({
      unread: ['the peak rather than the mean'],
    });
  });

  it("refuses a model's revision that keeps the replaced threshold beside the new one", () => {
    const before = planOf('average temperature per device, only above 30');
    const above35 = planOf('average temperature per device, only above 35');
    const both = { ...before, where: { kind: 'and' as const, conditions: [above35.where!, before.where!] } };
    expect(checkEdit(before, both, '35 would be better')).toMatch(/kept temperature > 30 beside the new 35/);
    expect(checkEdit(before, above35, '35 would be better')).toBeNull();
  });

  it('names conditions that cannot hold together', () => {
    const plan = planOf('average temperature per device, only above 30');
    const where = {
      kind: 'and' as const,
      conditions: [plan.where!, { kind: 'null' as const, column: { column: 'temperature' } }],
    };
    expect(contradictions({ ...plan, where })).toEqual([
      'temperature > 30 and temperature IS NULL cannot both hold, so no row can match',
    ]);
    const low = {
      kind: 'compare' as const,
      left: { kind: 'column' as const, ref: { column: 'temperature' } },
      op: '<' as const,
      value: { kind: 'number' as const, value: 20 },
    };
    expect(contradictions({ ...plan, where: { kind: 'and', conditions: [plan.where!, low] } })).toEqual([
      'temperature > 30 and temperature < 20 cannot both hold, so no row can match',
    ]);
    expect(contradictions(plan)).toEqual([]);
  });
});
