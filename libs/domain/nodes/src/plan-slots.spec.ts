import type { Column } from '@nl2p/envelope';
import { QueryPlan } from '@nl2p/query-plan';
import { joinKeyOf as joinKey } from '@nl2p/linking';
import { planToSlots, refOfLabel, slotPlanSchema, slotsToPlan, slotVocabulary, type SlotPlan } from './plan-slots';

const c = (name: string, data_type: string, fields?: Column[]): Column => ({
  name,
  data_type,
  ...(fields ? { fields } : {}),
});
const TABLES: Record<string, Column[]> = {
  orders: [c('order_id', 'INTEGER'), c('customer_id', 'INTEGER'), c('status', 'VARCHAR'), c('quantity', 'INTEGER'), c('ordered_at', 'TIMESTAMP')],
  customers: [c('customer_id', 'INTEGER'), c('country', 'VARCHAR')],
  vehicle: [c('vin', 'String'), c('speed', 'Float64'), c('location', 'Struct', [c('lat', 'Float64'), c('lon', 'Float64')])],
}; // prettier-ignore

const empty: SlotPlan = {
  table: 'orders',
  columns: [],
  aggregates: [],
  filters: [],
  group_by: [],
  time: null,
  order: null,
  limit: null,
};

describe('slot vocabulary and schema', () => {
  const v = slotVocabulary({
    tables: TABLES,
    table: 'orders',
    joinable: ['customers'],
    preferred: ['status', 'customers.country'],
    streaming: false,
    allowBeyond: false,
  });

  it('lists linked columns first, joined ones qualified, and only numeric columns as numeric', () => {
    expect(v.columns.slice(0, 2)).toEqual(['status', 'customers.country']);
    expect(v.columns).toContain('customers.customer_id');
    expect(v.numeric).toEqual(expect.arrayContaining(['quantity', 'order_id']));
    expect(v.numeric).not.toContain('status');
    expect(v.tables[0]).toBe('orders');
  });

  it('enumerates names: an unknown column or operator does not validate', () => {
    const schema = slotPlanSchema(v);
    expect(schema.safeParse({ ...empty, columns: ['status'] }).success).toBe(true);
    expect(schema.safeParse({ ...empty, columns: ['made_up'] }).success).toBe(false);
    expect(schema.safeParse({ ...empty, filters: [{ column: 'status', op: 'LIKE', value: 'x' }] }).success).toBe(false);
    expect(schema.safeParse({ ...empty, order: { by: 'avg(quantity)', direction: 'desc' } }).success).toBe(true);
    expect(schema.safeParse({ ...empty, order: { by: 'avg(status)', direction: 'desc' } }).success).toBe(false);
  });

  it('asks for a window kind only on streaming targets, and beyond_plan only in auto mode', () => {
    const streaming = slotPlanSchema({ ...v, streaming: true, allowBeyond: true });
    const withWindow = {
      ...empty,
      time: { unit: 'second', size: 10, window: 'tumbling' },
      beyond_plan: false,
      question: null,
    };
    expect(streaming.safeParse(withWindow).success).toBe(true);
    expect(streaming.safeParse({ ...withWindow, time: { unit: 'second', size: 10 } }).success).toBe(false);
    expect(slotPlanSchema(v).parse({ ...withWindow, time: { unit: 'hour', size: 1 } })).not.toHaveProperty(
      'beyond_plan',
    );
  });
});

describe('slotsToPlan', () => {
  it('groups by the chosen keys and aggregates, and makes a time bucket on the table time column', () => {
    const plan = QueryPlan.parse(
      slotsToPlan(
        {
          ...empty,
          aggregates: [{ fn: 'count', of: '*', distinct: false }],
          group_by: ['status'],
          time: { unit: 'month', size: 1 },
        },
        TABLES,
        false,
      ),
    );
    expect(plan.time_bucket).toMatchObject({ column: { column: 'ordered_at' }, unit: 'month', size: 1 });
    expect(plan.select.map((p) => p.kind)).toEqual(['bucket', 'value', 'aggregate']);
    expect(plan.group_by).toEqual([{ table: null, column: 'status' }]);
  });

  it('counts a repeated entry once: the same filter, column or aggregate twice adds nothing', () => {
    const plan = QueryPlan.parse(
      slotsToPlan(
        {
          ...empty,
          columns: ['status', 'status'],
          aggregates: [
            { fn: 'sum', of: 'quantity', distinct: false },
            { fn: 'sum', of: 'quantity', distinct: false },
          ],
          group_by: ['status', 'status'],
          filters: [
            { column: 'quantity', op: 'not_null', value: null },
            { column: 'quantity', op: 'not_null', value: null },
            { column: 'quantity', op: '>', value: 2 },
          ],
        },
        TABLES,
        false,
      ),
    );
    expect(plan.select.map((p) => p.kind)).toEqual(['value', 'aggregate']);
    expect(plan.group_by).toEqual([{ table: null, column: 'status' }]);
    expect(plan.where).toMatchObject({ kind: 'and', conditions: [{ kind: 'null' }, { kind: 'compare' }] });
  });

  it('joins a table it names on the key both share', () => {
    const plan = QueryPlan.parse(
      slotsToPlan(
        { ...empty, aggregates: [{ fn: 'sum', of: 'quantity', distinct: false }], group_by: ['customers.country'] },
        TABLES,
        false,
      ),
    );
    expect(plan.joins).toEqual([
      {
        table: 'customers',
        kind: 'inner',
        on: [
          { left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } },
        ],
      },
    ]);
  });

  it('types filter values from the column: numbers, timestamps, text', () => {
    const plan = QueryPlan.parse(
      slotsToPlan(
        {
          ...empty,
          filters: [
            { column: 'quantity', op: '>=', value: '4' },
            { column: 'ordered_at', op: '<', value: '2024-03-01' },
            { column: 'status', op: '=', value: 'pending' },
          ],
        },
        TABLES,
        false,
      ),
    );
    expect(plan.where).toMatchObject({
      kind: 'and',
      conditions: [
        { value: { kind: 'number', value: 4 } },
        { value: { kind: 'timestamp', value: '2024-03-01' } },
        { value: { kind: 'string', value: 'pending' } },
      ],
    });
  });

  it('makes windows on streaming targets, struct fields as paths', () => {
    const plan = QueryPlan.parse(
      slotsToPlan(
        {
          ...empty,
          table: 'vehicle',
          columns: ['location->lat'],
          time: { unit: 'second', size: 30, window: 'sliding' },
        },
        TABLES,
        true,
      ),
    );
    expect(plan.window).toEqual({ kind: 'sliding', unit: 'second', size: 30, lookahead: 0 });
    expect(plan.select[0]).toMatchObject({ expr: { ref: { column: 'location', path: ['lat'] } } });
    expect(plan.time_bucket).toBeNull();
  });
});

describe('planToSlots', () => {
  it('round-trips what slots can say', () => {
    const slots: SlotPlan = {
      ...empty,
      aggregates: [{ fn: 'avg', of: 'quantity', distinct: false }],
      filters: [{ column: 'status', op: '!=', value: 'cancelled' }],
      group_by: ['status'],
      order: { by: 'avg(quantity)', direction: 'desc' },
      limit: 3,
    };
    expect(planToSlots(QueryPlan.parse(slotsToPlan(slots, TABLES, false)), false)).toEqual(slots);
  });

  it('gives up (null) on what slots cannot say, so no wrong hint is shown', () => {
    const plan = QueryPlan.parse({
      source: 'orders',
      where: { kind: 'or', conditions: [{ kind: 'null', column: { column: 'status' } }] },
    });
    expect(planToSlots(plan, false)).toBeNull();
  });
});

describe('joinKey and labels', () => {
  it('finds a shared id column, or table_id ↔ id', () => {
    expect(joinKey(TABLES, 'orders', 'customers')).toEqual({ left: 'customer_id', right: 'customer_id' });
    const t = { trips: [c('vendor_id', 'INTEGER')], vendors: [c('id', 'INTEGER'), c('name', 'VARCHAR')] };
    expect(joinKey(t, 'trips', 'vendors')).toEqual({ left: 'vendor_id', right: 'id' });
    expect(joinKey(TABLES, 'orders', 'vehicle')).toBeNull();
  });

  it('reads table prefixes and struct paths from labels', () => {
    expect(refOfLabel('customers.country')).toEqual({ table: 'customers', column: 'country' });
    expect(refOfLabel('location->lat')).toEqual({ table: null, column: 'location', path: ['lat'] });
  });
});
