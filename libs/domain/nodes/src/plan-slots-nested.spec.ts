import { z } from 'zod';
import type { Column } from '@nl2p/envelope';
import { targetProfile } from '@nl2p/engine';
import { withoutDefaults } from '@nl2p/llm';
import { checkPlan, QueryPlan } from '@nl2p/query-plan';
import { slotPlanSchema, slotsToPlan, slotVocabulary, type SlotPlan } from './plan-slots';

const c = (name: string, data_type: string): Column => ({ name, data_type });
const TABLES: Record<string, Column[]> = {
  customers: [c('customer_id', 'integer'), c('name', 'varchar'), c('country', 'varchar')],
  orders: [
    c('order_id', 'integer'),
    c('customer_id', 'integer'),
    c('unit_price', 'decimal(10,2)'),
    c('ordered_at', 'timestamp'),
  ],
};
const vocabulary = (nested: boolean) =>
  slotVocabulary({
    tables: TABLES,
    table: 'customers',
    joinable: [],
    preferred: [],
    streaming: false,
    allowBeyond: false,
    nested,
  });
const FLAT: SlotPlan = {
  table: 'customers',
  columns: ['name'],
  aggregates: [],
  filters: [],
  group_by: [],
  time: null,
  order: null,
  limit: null,
};
const NONE = {
  distinct: false,
  offset: 0,
  date_filters: [],
  having: [],
  sub_filters: [],
  combine: null,
  extreme: null,
};

describe('plan slots for server models (nested)', () => {
  it('enumerate every table and every column of the catalog, every field required', () => {
    const json = z.toJSONSchema(slotPlanSchema(vocabulary(true))) as { required: string[]; properties: Record<string, unknown> };
    expect(json.required).toEqual(expect.arrayContaining(['distinct', 'offset', 'date_filters', 'having', 'sub_filters', 'combine', 'extreme']));
    const subFilters = JSON.stringify(json.properties.sub_filters);
    expect(subFilters).toContain('"enum":["customers","orders"]');
    for (const label of ['customers.customer_id', 'customers.name', 'customers.country', 'orders.order_id', 'orders.customer_id', 'orders.unit_price', 'orders.ordered_at']) expect(subFilters).toContain(`"${label}"`);
    expect(JSON.stringify(json)).toContain('"day_of_week"');
    // Defaults (for answers that leave the extras out) are stripped before a strict server sees them.
    expect(JSON.stringify(withoutDefaults(json))).not.toContain('"default"');
  }); // prettier-ignore

  it('read an answer that leaves the extras out (a server without strict outputs) as their empty values', () => {
    expect(slotPlanSchema(vocabulary(true)).parse(FLAT)).toEqual({ ...FLAT, ...NONE });
  });

  it("stay out of the small models' flat form", () => {
    const json = z.toJSONSchema(slotPlanSchema(vocabulary(false))) as { required: string[] };
    expect(json.required).not.toContain('sub_filters');
  });

  it('turn into a plan the check accepts and both SQL targets compile: customers who never ordered above 100', () => {
    const slots: SlotPlan = { ...FLAT, ...NONE, sub_filters: [{ column: 'customer_id', op: 'not_exists', quantifier: 'single', table: 'orders', of: 'orders.customer_id', fn: 'none', where: { column: 'orders.unit_price', op: '>', value: 100 } }] };
    const checked = checkPlan(QueryPlan.parse(slotsToPlan(slots, TABLES, false)), TABLES);
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    expect(targetProfile('duckdb').compiler.compile(checked.plan, TABLES).sql).toBe(
      'SELECT name FROM customers WHERE NOT EXISTS (SELECT orders.customer_id FROM orders WHERE orders.unit_price > 100 AND orders.customer_id = customers.customer_id)',
    );
  }); // prettier-ignore

  it('carry date parts, extremes, HAVING, OFFSET and a set operation into the plan', () => {
    const slots: SlotPlan = {
      ...FLAT, table: 'orders', columns: ['customer_id'], ...NONE, offset: 2, distinct: true,
      order: { by: 'customer_id', direction: 'asc' },
      date_filters: [{ column: 'ordered_at', part: 'year', op: '=', value: 2024 }],
      extreme: { per: ['customer_id'], by: 'unit_price', extreme: 'max', count: 1 },
    }; // prettier-ignore
    const plan = QueryPlan.parse(slotsToPlan(slots, TABLES, false));
    expect(plan).toMatchObject({ distinct: true, offset: 2, where: { kind: 'compare', left: { ref: { column: 'ordered_at', part: 'year' } } }, extreme_per_group: { by: { ref: { column: 'unit_price' } }, extreme: 'max' } });
    const combined = QueryPlan.parse(slotsToPlan({ ...FLAT, ...NONE, columns: ['customer_id'], combine: { op: 'except', table: 'orders', columns: ['orders.customer_id'], where: null } }, TABLES, false));
    expect(checkPlan(combined, TABLES).ok).toBe(true);
    expect(combined.set_operations[0]).toMatchObject({ op: 'except', plan: { source: 'orders' } });
  }); // prettier-ignore
});
