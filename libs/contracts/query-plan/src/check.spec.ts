import type { Column } from '@nl2p/envelope';
import { checkPlan, classifyType, closestNames } from './check';
import { QueryPlan, type QueryPlanInput } from './plan';

const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
const TABLES: Record<string, Column[]> = {
  orders: [c('order_id', 'INTEGER'), c('customer_id', 'INTEGER'), c('status', 'VARCHAR'), c('quantity', 'integer'), c('ordered_at', 'timestamp without time zone')],
  customers: [c('customer_id', 'INTEGER'), c('country', 'text')],
  vehicle: [c('vin', 'String'), c('location', 'Struct', [c('lat', 'Float64')])],
}; // prettier-ignore
const check = (p: QueryPlanInput) => checkPlan(QueryPlan.parse(p), TABLES);
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}) },
});

describe('checkPlan', () => {
  it('resolves each column to its table and groups plain values shown beside aggregates', () => {
    const r = check({
      source: 'orders',
      joins: [{ table: 'customers', on: [{ left: { column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } }] }],
      select: [{ kind: 'value', expr: col('country') }, { kind: 'aggregate', aggregate: { fn: 'sum', arg: col('quantity') } }],
    }); // prettier-ignore
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.select[0]).toMatchObject({ expr: { ref: { table: 'customers', column: 'country' } } });
    expect(r.plan.group_by).toEqual([{ table: 'customers', column: 'country' }]);
  });

  it('names the closest real names for a missing table, column or struct field', () => {
    expect(check({ source: 'order' })).toEqual({ ok: false, errors: [expect.stringMatching(/no table or stream 'order'; did you mean orders/)] });
    expect(check({ source: 'orders', select: [{ kind: 'value', expr: col('qty_ordered') }] })).toMatchObject({ ok: false });
    const field = check({ source: 'vehicle', select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'location', path: ['alt'] } } }] });
    expect(field).toEqual({ ok: false, errors: ["column 'location' has no field 'alt'; its fields are lat"] });
  }); // prettier-ignore

  it('refuses type errors: sum of text, a bucket on a non-time column, an ambiguous column', () => {
    expect(
      check({ source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'sum', arg: col('status') } }] }),
    ).toEqual({
      ok: false,
      errors: ["sum() needs a numeric value; 'status' is text"],
    });
    expect(
      check({
        source: 'orders',
        select: [{ kind: 'bucket' }],
        time_bucket: { column: { column: 'status' }, unit: 'day' },
      }),
    ).toMatchObject({ ok: false, errors: [expect.stringMatching(/need a date or time column/)] });
    // customer_id is in both tables and the source has it: the source wins, no ambiguity.
    expect(
      check({
        source: 'orders',
        joins: [
          {
            table: 'customers',
            on: [{ left: { column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } }],
          },
        ],
        select: [{ kind: 'value', expr: col('customer_id') }],
      }),
    ).toMatchObject({ ok: true });
  });

  it('classifies the type spellings of every target', () => {
    expect(['DOUBLE', 'double precision', 'Float64', 'Int64', 'BIGINT', 'numeric(10,2)'].map(classifyType)).toEqual(Array(6).fill('number'));
    expect(['VARCHAR', 'text', 'String'].map(classifyType)).toEqual(['text', 'text', 'text']);
    expect(['TIMESTAMP', 'timestamp without time zone', 'DATE'].map(classifyType)).toEqual(['time', 'time', 'time']);
    expect(closestNames('temp', ['temperature', 'humidity'])).toEqual(['temperature']);
  }); // prettier-ignore
});
