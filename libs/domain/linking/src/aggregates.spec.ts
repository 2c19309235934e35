import type { QueryPlanInput } from '@nl2p/query-plan';
import { linkRequest } from './link';
import { proposePlan } from './propose';
import { demoSchema, streamSchema, taxiSchema } from './testing/fixtures';
import type { LinkSchema } from './types';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();

const plan = (text: string, schema: LinkSchema): QueryPlanInput | null =>
  proposePlan(linkRequest(text, schema), schema).plan;

/** `avg(temperature)`, `count(*)`, `count(distinct customer_id)`, `sum(quantity * unit_price)`. */
function aggregates(p: QueryPlanInput | null): string[] {
  const expr = (e: unknown): string => {
    const v = e as {
      kind: string;
      ref?: { column: string; table?: string };
      value?: number;
      op?: string;
      left?: unknown;
      right?: unknown;
    };
    if (!v) return '*';
    if (v.kind === 'column') return `${v.ref?.table ? `${v.ref.table}.` : ''}${v.ref?.column ?? ''}`;
    if (v.kind === 'number') return String(v.value);
    return `${expr(v.left)} ${v.op ?? ''} ${expr(v.right)}`;
  };
  return (p?.select ?? []).flatMap((s) =>
    s.kind === 'aggregate'
      ? [`${s.aggregate.fn}(${s.aggregate.distinct ? 'distinct ' : ''}${expr(s.aggregate.arg)})`]
      : [],
  );
}
const groupBy = (p: QueryPlanInput | null) =>
  (p?.group_by ?? []).map((g) => `${g.table ? `${g.table}.` : ''}${g.column}`);

describe('aggregate words', () => {
  it.each([
    ['What is the average humidity?', demo, ['avg(humidity)']],
    ['mean temperature of all readings', demo, ['avg(temperature)']],
    ['the highest temperature ever recorded', demo, ['max(temperature)']],
    ['peak fare', taxi, ['max(fare_amt)']],
    ['the lowest battery level', demo, ['min(battery)']],
    ['total tip amount', taxi, ['sum(tipAmt)']],
    ['sum of the fares', taxi, ['sum(fare_amt)']],
    ['How many trips are there?', taxi, ['count(*)']],
    ['number of orders that were delivered', demo, ['count(*)']],
    ['how many different customers ordered', demo, ['count(distinct customer_id)']],
    ['how many unique vendors', taxi, ['count(distinct vendor_name)']],
    ['how many passengers in total', taxi, ['sum(passenger_cnt)']],
    ['the minimum and the maximum fare', taxi, ['min(fare_amt)', 'max(fare_amt)']],
    ['total revenue (quantity times unit price)', demo, ['sum(quantity * unit_price)']],
    ['total of fare amount plus tip amount', taxi, ['sum(fare_amt + tipAmt)']],
  ] as const)('%s', (text, schema, expected) => {
    expect(aggregates(plan(text, schema))).toEqual(expected);
  });
});

describe('grouping cues', () => {
  it.each([
    ['Average temperature per device', demo, ['device_id'], ['avg(temperature)']],
    ['Number of orders for each status', demo, ['status'], ['count(*)']],
    ['How many customers do we have in each country?', demo, ['country'], ['count(*)']],
    ['total quantity by category', demo, ['category'], ['sum(quantity)']],
    ['average fare per vendor', taxi, ['vendor_name'], ['avg(fare_amt)']],
    ['borough-wise passenger count', taxi, ['pu_borough'], ['sum(passenger_cnt)']],
    ['For each payment type, the average tip amount', taxi, ['payment_type'], ['avg(tipAmt)']],
    ['Maximum speed per vehicle every 5 seconds', stream, ['vin'], ['max(speed)']],
  ] as const)('%s', (text, schema, keys, aggs) => {
    const p = plan(text, schema);
    expect(groupBy(p)).toEqual(keys);
    expect(aggregates(p)).toEqual(aggs);
  });

  it('does not group a table by its own rows (per order = per row)', () => {
    expect(groupBy(plan('What is the average quantity per order?', demo))).toEqual([]);
    expect(groupBy(plan('average fare per trip', taxi))).toEqual([]);
  });

  it('reads "each"/"every" without anything computed as a quantifier', () => {
    const p = plan('Show the time and temperature of every reading', demo);
    expect(groupBy(p)).toEqual([]);
    expect(aggregates(p)).toEqual([]);
  });

  it('sums a derived amount grouped without an aggregate word', () => {
    const p = plan('Revenue per product, where revenue is quantity times unit price.', demo);
    expect(aggregates(p)).toEqual(['sum(quantity * unit_price)']);
    expect(groupBy(p)).toEqual(['product']);
  });
});
