import { checkPlan, parseQueryPlan, type QueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import {
  combinePlan,
  combineTables,
  decomposePlan,
  layersOf,
  parseExecutionDag,
  scansOf,
  type ScanNode,
} from './index';

/** The demo tables split across two sources, as a deployment with `crm` and `shop` sees them. */
const TABLES = {
  'crm.customers': [
    { name: 'customer_id', data_type: 'integer' },
    { name: 'name', data_type: 'text' },
    { name: 'country', data_type: 'text' },
    { name: 'segment', data_type: 'text' },
  ],
  'crm.devices': [
    { name: 'device_id', data_type: 'text' },
    { name: 'site', data_type: 'text' },
  ],
  'shop.orders': [
    { name: 'order_id', data_type: 'integer' },
    { name: 'customer_id', data_type: 'integer' },
    { name: 'quantity', data_type: 'integer' },
    { name: 'unit_price', data_type: 'decimal(10,2)' },
    { name: 'status', data_type: 'varchar' },
    { name: 'ordered_at', data_type: 'timestamp' },
  ],
  'shop.sensor_readings': [
    { name: 'device_id', data_type: 'varchar' },
    { name: 'temperature', data_type: 'double' },
  ],
};

function checked(input: QueryPlanInput): QueryPlan {
  const result = checkPlan(parseQueryPlan(input), TABLES);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.plan;
}

const col = (table: string, column: string) => ({ kind: 'column' as const, ref: { table, column } });
const customersJoin = {
  table: 'crm.customers',
  on: [
    { left: { table: 'shop.orders', column: 'customer_id' }, right: { table: 'crm.customers', column: 'customer_id' } },
  ],
};

function scan(dag: ReturnType<typeof decomposePlan>, id: string): ScanNode {
  const found = scansOf(dag).find((s) => s.id === id);
  if (!found) throw new Error(`no scan ${id}`);
  return found;
}

describe('decomposePlan', () => {
  const revenueByCountry = checked({
    source: 'shop.orders',
    joins: [customersJoin],
    select: [
      { kind: 'value', expr: col('crm.customers', 'country') },
      {
        kind: 'aggregate',
        aggregate: {
          fn: 'sum',
          arg: {
            kind: 'arith',
            op: '*',
            left: col('shop.orders', 'quantity'),
            right: col('shop.orders', 'unit_price'),
          },
        },
        alias: 'revenue',
      },
    ],
    where: {
      kind: 'and',
      conditions: [
        { kind: 'compare', left: col('shop.orders', 'status'), op: '=', value: { kind: 'string', value: 'shipped' } },
        {
          kind: 'in',
          column: { table: 'crm.customers', column: 'segment' },
          values: [{ kind: 'string', value: 'retail' }],
        },
      ],
    },
    group_by: [{ table: 'crm.customers', column: 'country' }],
    order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
    limit: 3,
  });

  it('pushes each source its own filters and asks it only for the columns needed later', () => {
    const dag = decomposePlan(revenueByCountry, TABLES);
    const shop = scan(dag, 'scan_shop');
    const crm = scan(dag, 'scan_crm');
    expect(shop.source).toBe('shop');
    expect(shop.plan.source).toBe('orders');
    expect(shop.plan.where).toMatchObject({ kind: 'compare', left: { ref: { table: 'orders', column: 'status' } } });
    expect(shop.outputs.map((o) => o.name).sort()).toEqual(['orders_customer_id', 'quantity', 'unit_price']);
    expect(crm.plan.where).toMatchObject({ kind: 'in', column: { table: 'customers', column: 'segment' } });
    expect(crm.outputs.map((o) => o.name).sort()).toEqual(['country', 'customers_customer_id']);
    // The filter column ran in the source: it is not carried to the combine.
    expect(crm.outputs.some((o) => o.column === 'segment')).toBe(false);
  });

  it('runs the join, the aggregate, the order and the limit after the combine, in deterministic layers', () => {
    const dag = decomposePlan(revenueByCountry, TABLES);
    expect(dag.nodes.map((n) => n.kind)).toEqual([
      'scan',
      'scan',
      'combine',
      'post_aggregate',
      'post_project',
      'post_sort',
      'post_limit',
    ]);
    expect(dag.layers).toEqual([
      ['scan_crm', 'scan_shop'],
      ['combine'],
      ['post_aggregate'],
      ['post_project'],
      ['post_sort'],
      ['post_limit'],
    ]);
    expect(dag.output).toBe('post_limit');
    expect(parseExecutionDag(JSON.parse(JSON.stringify(dag)))).toEqual(dag);
    const combined = combinePlan(dag);
    expect(combined.source).toBe('scan_shop');
    expect(combined.joins[0]).toMatchObject({
      table: 'scan_crm',
      on: [
        {
          left: { table: 'scan_shop', column: 'orders_customer_id' },
          right: { table: 'scan_crm', column: 'customers_customer_id' },
        },
      ],
    });
    expect(combined.group_by).toEqual([{ table: 'scan_crm', column: 'country' }]);
    expect(combined.limit).toBe(3);
    // The combine plan passes the same catalog check as any plan, over the scans' results.
    expect(checkPlan(combined, combineTables(dag))).toMatchObject({ ok: true });
  });

  it('keeps a condition reading two sources for after the combine', () => {
    const plan = checked({
      source: 'shop.orders',
      joins: [customersJoin],
      select: [{ kind: 'value', expr: col('shop.orders', 'order_id') }],
      where: {
        kind: 'or',
        conditions: [
          { kind: 'compare', left: col('shop.orders', 'quantity'), op: '>', value: { kind: 'number', value: 4 } },
          { kind: 'text', column: { table: 'crm.customers', column: 'country' }, match: 'equals', value: 'France' },
        ],
      },
    });
    const dag = decomposePlan(plan, TABLES);
    expect(scansOf(dag).every((s) => s.plan.where === null)).toBe(true);
    expect(dag.nodes.find((n) => n.kind === 'post_filter')).toMatchObject({ condition: { kind: 'or' } });
    expect(
      scan(dag, 'scan_crm')
        .outputs.map((o) => o.column)
        .sort(),
    ).toEqual(['country', 'customer_id']);
  });

  it('does not push a filter into the optional side of a LEFT JOIN across sources', () => {
    const plan = checked({
      source: 'shop.orders',
      joins: [{ ...customersJoin, kind: 'left' }],
      select: [{ kind: 'value', expr: col('shop.orders', 'order_id') }],
      where: {
        kind: 'compare',
        left: col('crm.customers', 'country'),
        op: '=',
        value: { kind: 'string', value: 'Spain' },
      },
    });
    const dag = decomposePlan(plan, TABLES);
    expect(scan(dag, 'scan_crm').plan.where).toBeNull();
    expect(dag.nodes.some((n) => n.kind === 'post_filter')).toBe(true);
  });

  it('keeps a plan reading one source whole, as that source reads it', () => {
    const plan = checked({
      source: 'shop.orders',
      select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }],
      where: {
        kind: 'compare',
        left: col('shop.orders', 'status'),
        op: '=',
        value: { kind: 'string', value: 'shipped' },
      },
    });
    const dag = decomposePlan(plan, TABLES);
    expect(dag.nodes).toHaveLength(1);
    expect(dag.output).toBe('scan_shop');
    expect(scan(dag, 'scan_shop').plan).toMatchObject({
      source: 'orders',
      where: { left: { ref: { table: 'orders' } } },
    });
  });

  it('refuses what it cannot split yet, in a sentence', () => {
    const plan = checked({
      source: 'shop.orders',
      select: [{ kind: 'value', expr: col('shop.orders', 'customer_id') }],
      set_operations: [
        {
          op: 'intersect',
          plan: { source: 'crm.customers', select: [{ kind: 'value', expr: col('crm.customers', 'customer_id') }] },
        },
      ],
    });
    expect(() => decomposePlan(plan, TABLES)).toThrow(/nested plan or set operand reading another source/);
    const joined = checked({
      source: 'shop.orders',
      joins: [customersJoin],
      select: [{ kind: 'value', expr: col('shop.orders', 'order_id') }],
    });
    const withSet = { ...joined, set_operations: plan.set_operations };
    expect(() => decomposePlan(withSet, TABLES)).toThrow(/set operation .* across sources is not split yet/);
  });

  it('computes layers whatever order the nodes come in, and refuses a cycle', () => {
    const nodes = [
      { id: 'c', inputs: ['a', 'b'] },
      { id: 'b', inputs: [] },
      { id: 'a', inputs: [] },
      { id: 'd', inputs: ['c'] },
    ];
    expect(layersOf(nodes)).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(layersOf([...nodes].reverse())).toEqual(layersOf(nodes));
    expect(() =>
      layersOf([
        { id: 'x', inputs: ['y'] },
        { id: 'y', inputs: ['x'] },
      ]),
    ).toThrow(/cycle/);
  });
});
