import { linkRequest } from './link';
import { proposePlan } from './propose';
import { demoSchema, streamSchema, taxiSchema } from './testing/fixtures';
import type { Condition } from '@nl2p/query-plan';
import type { LinkSchema } from './types';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();

/** The WHERE of the proposed plan, flattened to `column op value` strings. */
function where(text: string, schema: LinkSchema): string[] {
  const plan = proposePlan(linkRequest(text, schema), schema).plan;
  // The plan's input type leaves the recursive condition untyped.
  const w = (plan?.where ?? null) as Condition | null;
  const flat = !w ? [] : w.kind === 'and' ? w.conditions : [w];
  return flat.map((c) => {
    if (c.kind === 'compare' && c.left.kind === 'column') {
      const ref = c.left.ref;
      return `${[ref.column, ...(ref.path ?? [])].join('->')} ${c.op} ${String(c.value.value)}`;
    }
    if (c.kind === 'between') return `${c.column.column} between ${String(c.low.value)} and ${String(c.high.value)}`;
    if (c.kind === 'in')
      return `${c.column.column} ${c.negated ? 'not in' : 'in'} ${c.values.map((v) => String(v.value)).join(',')}`;
    return c.kind;
  });
}

describe('numbers, units and comparison words', () => {
  it.each([
    ['readings above 30 degrees', demo, ['temperature > 30']],
    ['readings where the humidity was under 40 percent', demo, ['humidity < 40']],
    ['orders with a quantity of at least 4', demo, ['quantity >= 4']],
    ['orders with quantity no more than 2', demo, ['quantity <= 2']],
    ['readings with a battery level exceeding 90', demo, ['battery > 90']],
    ['orders whose unit price is between 10 and 50', demo, ['unit_price between 10 and 50']],
    ['trips with more than 3 passengers', taxi, ['passenger_cnt > 3']],
    ['trips where the fare is at most 12.5 dollars', taxi, ['fare_amt <= 12.5']],
    ['trips with a tip amount greater than 5', taxi, ['tipAmt > 5']],
    ['trips of 3 passengers or more', taxi, ['passenger_cnt >= 3']],
    ['vehicles driving faster than 120', stream, ['speed > 120']],
    ['vehicles south of latitude 40', stream, ['location->lat < 40']],
  ] as const)('%s', (text, schema, expected) => {
    expect(where(text, schema)).toEqual(expected);
  });

  it('keeps numbers inside values and identifiers out of comparisons', () => {
    expect(where('readings of dev-03 above 25 degrees', demo)).toEqual(['device_id = dev-03', 'temperature > 25']);
  });

  it('negates: not, neither … nor, except', () => {
    expect(where('orders that were neither cancelled nor returned', demo)).toEqual([
      'status not in cancelled,returned',
    ]);
    expect(where('orders not in the books category', demo)).toEqual(['category != books']);
    expect(where('trips except those paid in cash', taxi)).toEqual(['payment_type != cash']);
    expect(where('trips from Brooklyn or Queens', taxi)).toEqual(['pu_borough in Brooklyn,Queens']);
  });

  it('reads a comparison with an aggregate as HAVING', () => {
    const plan = proposePlan(
      linkRequest('Average fare per vendor, only vendors whose average is above 20', taxi),
      taxi,
    ).plan;
    expect(plan?.having).toEqual([
      {
        aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'fare_amt' } }, distinct: false },
        op: '>',
        value: 20,
      },
    ]);
    const rows = proposePlan(
      linkRequest('Customers per country, only countries with more than 5 customers', demo),
      demo,
    ).plan;
    expect(rows?.having).toEqual([{ aggregate: { fn: 'count', arg: null, distinct: false }, op: '>', value: 5 }]);
  });

  it('reads a boolean column said as a condition', () => {
    expect(where('average speed per vehicle, only for vehicles reported as ok', stream)).toEqual(['ok = true']);
  });
});
