import { QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import { planOutline } from './plan-outline';

const outline = (input: QueryPlanInput) => planOutline(QueryPlan.parse(input)).map((l) => `${l.label}: ${l.text}`);

describe('planOutline', () => {
  it('reads an aggregate per group with a row condition, a HAVING, order and limit in the order the query works', () => {
    expect(
      outline({
        source: 'sensor_readings',
        select: [
          { kind: 'value', expr: { kind: 'column', ref: { table: 'sensor_readings', column: 'device_id' } } },
          {
            kind: 'aggregate',
            aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'temperature' } } },
            alias: 'avg_temp',
          },
        ],
        where: {
          kind: 'compare',
          left: { kind: 'column', ref: { column: 'temperature' } },
          op: '>',
          value: { kind: 'number', value: 30 },
        },
        group_by: [{ column: 'device_id' }],
        having: [{ aggregate: { fn: 'count' }, op: '>=', value: 5 }],
        order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
        limit: 3,
      }),
    ).toEqual([
      'Reads: sensor_readings',
      'Keeps rows where: temperature above 30',
      'For each: device_id',
      'Keeps groups where: number of rows at least 5',
      'Shows: device_id, average temperature (as avg_temp)',
      'Sorted by: avg_temp high to low',
      'At most: 3 rows',
    ]);
  });

  it('reads joins, time buckets, text matches, negation and sub-plans', () => {
    expect(
      outline({
        source: 'orders',
        joins: [
          {
            table: 'customers',
            on: [{ left: { column: 'customer_id' }, right: { table: 'customers', column: 'id' } }],
          },
        ],
        select: [
          { kind: 'bucket', alias: 'day' },
          {
            kind: 'aggregate',
            aggregate: { fn: 'count', arg: { kind: 'column', ref: { column: 'id' } }, distinct: true },
          },
        ],
        where: {
          kind: 'and',
          conditions: [
            { kind: 'text', column: { table: 'customers', column: 'country' }, match: 'equals', value: 'germany' },
            {
              kind: 'not',
              condition: { kind: 'in', column: { column: 'status' }, values: [{ kind: 'string', value: 'cancelled' }] },
            },
            { kind: 'exists', negated: true, subquery: { plan: { source: 'returns' } } },
          ],
        },
        time_bucket: { column: { column: 'ordered_at' }, unit: 'day' },
      }),
    ).toEqual([
      'Reads: orders',
      'Joined with: customers on customer_id = customers.id',
      "Keeps rows where: customers.country is 'germany' (any case) and not (status is one of 'cancelled') and no matching row in returns",
      'In time buckets of: 1 day of ordered_at',
      'Shows: time bucket (as day), number of distinct id',
    ]);
  });

  it('reads a streaming window and a plan with no projection', () => {
    expect(outline({ source: 'sensor_stream', window: { kind: 'tumbling', unit: 'second', size: 10 } })).toEqual([
      'Reads: sensor_stream',
      'In windows: every 10 seconds, back to back',
      'Shows: every column',
    ]);
  });
});
