import type { QueryPlanInput } from '@nl2p/query-plan';
import { linkRequest } from './link';
import { proposePlan } from './propose';
import { demoSchema, taxiSchema } from './testing/fixtures';
import type { LinkSchema } from './types';

const demo = demoSchema();
const taxi = taxiSchema();
const plan = (text: string, schema: LinkSchema): QueryPlanInput | null =>
  proposePlan(linkRequest(text, schema), schema).plan;

describe('top-N and ordering', () => {
  it('ranks groups by an aggregate with a limit', () => {
    const p = plan('The 3 devices with the highest average temperature, highest first', demo);
    expect(p).toMatchObject({
      group_by: [{ column: 'device_id' }],
      order_by: [{ key: { kind: 'aggregate', aggregate: { fn: 'avg' } }, direction: 'desc' }],
      limit: 3,
    });
    const q = plan('top 5 vendors by total fare', taxi);
    expect(q).toMatchObject({
      group_by: [{ column: 'vendor_name' }],
      order_by: [
        {
          key: { kind: 'aggregate', aggregate: { fn: 'sum', arg: { ref: { column: 'fare_amt' } } } },
          direction: 'desc',
        },
      ],
      limit: 5,
    });
  });

  it('sorts rows on the time column for "most recent" / "newest first"', () => {
    const p = plan('The 10 most recent orders, newest first: order id and order time.', demo);
    expect(p).toMatchObject({
      select: [{ expr: { ref: { column: 'order_id' } } }, { expr: { ref: { column: 'ordered_at' } } }],
      order_by: [{ key: { kind: 'value', expr: { ref: { column: 'ordered_at' } } }, direction: 'desc' }],
      limit: 10,
    });
  });

  it('sorts on the column a superlative evokes', () => {
    expect(plan('The 3 hottest readings: time, device and temperature', demo)).toMatchObject({
      order_by: [{ key: { kind: 'value', expr: { ref: { column: 'temperature' } } }, direction: 'desc' }],
      limit: 3,
    });
    expect(plan('the 5 cheapest trips: trip id and fare', taxi)).toMatchObject({
      order_by: [{ key: { kind: 'value', expr: { ref: { column: 'fare_amt' } } }, direction: 'asc' }],
      limit: 5,
    });
  });

  it('answers "which X has the highest/lowest …" with one row', () => {
    expect(plan('Which device has the lowest average battery level?', demo)).toMatchObject({
      group_by: [{ column: 'device_id' }],
      order_by: [
        { key: { kind: 'aggregate', aggregate: { fn: 'avg', arg: { ref: { column: 'battery' } } } }, direction: 'asc' },
      ],
      limit: 1,
    });
    expect(plan('Which borough had the most trips?', taxi)).toMatchObject({
      group_by: [{ column: 'pu_borough' }],
      order_by: [{ key: { kind: 'aggregate', aggregate: { fn: 'count', arg: null } }, direction: 'desc' }],
      limit: 1,
    });
  });

  it('lists distinct values of a ranked column', () => {
    expect(plan('The 3 most expensive products by unit price, with the price', demo)).toMatchObject({
      distinct: true,
      select: [{ expr: { ref: { column: 'product' } } }, { expr: { ref: { column: 'unit_price' } } }],
      order_by: [{ key: { kind: 'value', expr: { ref: { column: 'unit_price' } } }, direction: 'desc' }],
      limit: 3,
    });
  });
});
