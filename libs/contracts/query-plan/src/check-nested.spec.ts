import type { Column } from '@nl2p/envelope';
import { checkPlan } from './check';
import { QueryPlan, type QueryPlanInput } from './plan';

const c = (name: string, data_type: string): Column => ({ name, data_type });
const TABLES: Record<string, Column[]> = {
  orders: [c('order_id', 'integer'), c('customer_id', 'integer'), c('status', 'varchar'), c('unit_price', 'decimal(10,2)'), c('ordered_at', 'timestamp')],
  customers: [c('customer_id', 'integer'), c('country', 'varchar'), c('name', 'varchar')],
}; // prettier-ignore
const check = (p: QueryPlanInput) => checkPlan(QueryPlan.parse(p), TABLES);
const errorsOf = (p: QueryPlanInput) => {
  const r = check(p);
  return r.ok ? [] : r.errors;
};
const col = (column: string, table?: string) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}) },
});
const value = (column: string) => ({ kind: 'value' as const, expr: col(column) });
const avgPrice = { kind: 'aggregate' as const, aggregate: { fn: 'avg' as const, arg: col('unit_price') } };

describe('checkPlan: sub-plans', () => {
  it('names the closest real names inside a sub-plan, as at the top', () => {
    expect(errorsOf({ source: 'customers', where: { kind: 'in_subquery', left: col('customer_id'), subquery: { plan: { source: 'order', select: [value('customer_id')] } } } })).toEqual([
      "no table or stream 'order'; did you mean orders?",
    ]);
    expect(errorsOf({ source: 'customers', where: { kind: 'exists', subquery: { plan: { source: 'orders', where: { kind: 'compare', left: col('stauts'), op: '=', value: { kind: 'string', value: 'x' } } } } } })).toEqual([
      "no column 'stauts' in orders; did you mean status?",
    ]);
  }); // prettier-ignore

  it('resolves correlation pairs on each side, the outer one in the outer plan only', () => {
    const r = check({ source: 'customers', where: { kind: 'exists', negated: true, subquery: { plan: { source: 'orders' }, correlate: [{ outer: { column: 'customer_id' }, inner: { column: 'customer_id' } }] } } });
    expect(r).toMatchObject({ ok: true, plan: { where: { subquery: { correlate: [{ outer: { table: 'customers' }, inner: { table: 'orders' } }] } } } });
    expect(errorsOf({ source: 'customers', where: { kind: 'exists', subquery: { plan: { source: 'orders' }, correlate: [{ outer: { column: 'status' }, inner: { column: 'customer_id' } }] } } })).toEqual([
      "no column 'status' in customers; its columns are customer_id, country, name",
    ]);
  }); // prettier-ignore

  it('needs one column of the compared kind, and one row when compared with a single value', () => {
    const sub = (plan: QueryPlanInput) => ({ source: 'orders', where: { kind: 'compare_subquery' as const, left: col('unit_price'), op: '>' as const, subquery: { plan } } });
    expect(errorsOf(sub({ source: 'orders', select: [avgPrice] }))).toEqual([]);
    expect(errorsOf(sub({ source: 'orders', select: [value('unit_price')], limit: 1 }))).toEqual([]);
    expect(errorsOf(sub({ source: 'orders', select: [value('unit_price')] }))[0]).toMatch(/needs one value, but the sub-plan can return several rows; aggregate it/);
    expect(errorsOf(sub({ source: 'orders', select: [value('status'), avgPrice] }))[0]).toMatch(/must select exactly one column; it selects 2/);
    expect(errorsOf(sub({ source: 'customers', select: [value('country')], limit: 1 }))).toEqual([
      "'unit_price' is number, but the sub-plan on customers gives text values; compare values of one kind",
    ]);
  }); // prettier-ignore

  it('lines up set operands: as many columns, of one kind, sorted by position, limited once', () => {
    const base = { source: 'customers', select: [value('country')] };
    expect(errorsOf({ ...base, set_operations: [{ op: 'intersect', plan: { source: 'orders', select: [value('status')] } }] })).toEqual([]);
    expect(errorsOf({ ...base, set_operations: [{ op: 'union', plan: { source: 'orders', select: [value('status'), value('order_id')] } }] })).toEqual([
      'union combines 1 column(s) with 2 from orders; both sides must show as many',
    ]);
    expect(errorsOf({ ...base, set_operations: [{ op: 'except', plan: { source: 'orders', select: [value('order_id')], limit: 3 } }] })).toEqual([
      'the plan on orders after except has its own order or limit; order and limit the combined rows in the first plan',
      'except: column 1 is text on one side and number on orders; combine columns of one kind',
    ]);
    expect(errorsOf({ ...base, order_by: [{ key: { kind: 'value', expr: col('country') } }], set_operations: [{ op: 'union', plan: { source: 'orders', select: [value('status')] } }] })[0]).toMatch(/sorted by output position only/);
  }); // prettier-ignore

  it('checks date parts, extremes and OFFSET', () => {
    expect(errorsOf({ source: 'orders', where: { kind: 'compare', left: { kind: 'column', ref: { column: 'status', part: 'year' } }, op: '=', value: { kind: 'number', value: 2024 } } })).toEqual([
      "'status' is text, not a date or time, so it has no year; the time columns are ordered_at",
    ]);
    expect(errorsOf({ source: 'orders', where: { kind: 'compare', left: { kind: 'column', ref: { column: 'ordered_at', part: 'year' } }, op: '=', value: { kind: 'string', value: '2024' } } })[0]).toMatch(/is number, so it cannot be compared with the string '2024'/);
    expect(errorsOf({ source: 'orders', extreme_per_group: { per: [{ column: 'custmer_id' }], by: col('unit_price'), extreme: 'max' } })).toEqual([
      "no column 'custmer_id' in orders; did you mean customer_id?",
    ]);
    expect(errorsOf({ source: 'orders', select: [value('unit_price')], limit: 1, offset: 1 })).toEqual([
      'OFFSET 1 skips rows in an order, but the plan has no order_by; say what to sort on',
    ]);
  }); // prettier-ignore

  it('reads a version-1 plan as it was written', () => {
    const v1: QueryPlanInput = { version: 1, source: 'orders', select: [value('status')] };
    expect(check(v1)).toMatchObject({
      ok: true,
      plan: { version: 1, offset: 0, set_operations: [], extreme_per_group: null },
    });
    expect(() => QueryPlan.parse({ ...v1, version: 3 })).toThrow();
  });
});
