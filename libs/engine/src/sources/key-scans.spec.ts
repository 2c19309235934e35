import { checkPlan, parseQueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import { decomposePlan } from '@nl2p/execution-dag';
import { duckdbCompiler } from '../duckdb/compiler';
import { keyScansOf, partOfKeyScan } from './key-scans';

const TABLES = {
  'crm.customers': [
    { name: 'customer_id', data_type: 'integer' },
    { name: 'country', data_type: 'text' },
  ],
  'shop.orders': [
    { name: 'order_id', data_type: 'integer' },
    { name: 'customer_id', data_type: 'integer' },
    { name: 'status', data_type: 'varchar' },
  ],
};
const compare = (table: string, column: string, value: string) => ({ kind: 'compare' as const, left: { kind: 'column' as const, ref: { table, column } }, op: '=' as const, value: { kind: 'string' as const, value } }); // prettier-ignore

function dagOf(where: unknown) {
  const input: QueryPlanInput = {
    source: 'shop.orders',
    joins: [{ table: 'crm.customers', on: [{ left: { table: 'shop.orders', column: 'customer_id' }, right: { table: 'crm.customers', column: 'customer_id' } }] }],
    select: [{ kind: 'aggregate', aggregate: { fn: 'count' }, alias: 'orders' }],
    where: where as QueryPlanInput['where'],
  }; // prettier-ignore
  const checked = checkPlan(parseQueryPlan(input), TABLES);
  if (!checked.ok) throw new Error(checked.errors.join('; '));
  return decomposePlan(checked.plan, TABLES);
}

describe('keyScansOf', () => {
  it('reads the join keys of each filtered part, distinct and unfiltered', () => {
    const scans = keyScansOf(dagOf(compare('crm.customers', 'country', 'Italy')));
    expect(scans).toHaveLength(1);
    const [keys] = scans;
    expect(keys?.source).toBe('crm');
    expect(partOfKeyScan(keys?.id ?? '')).toBe('scan_crm');
    const { sql } = duckdbCompiler.compile(keys.plan, { customers: TABLES['crm.customers'] });
    expect(sql).toMatch(/^SELECT DISTINCT customer_id AS customers_customer_id FROM customers$/);
  });

  it('reads nothing for unfiltered parts (they are their tables’ keys already)', () => {
    expect(keyScansOf(dagOf(null))).toEqual([]);
    const both = keyScansOf(dagOf({ kind: 'and', conditions: [compare('shop.orders', 'status', 'returned'), compare('crm.customers', 'country', 'Italy')] })); // prettier-ignore
    expect(both.map((s) => s.source).sort()).toEqual(['crm', 'shop']);
  });
});
