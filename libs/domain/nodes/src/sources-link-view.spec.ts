import { linkRequest, proposePlan, type LinkSchema } from '@nl2p/linking';
import { sourcesLinkView } from './sources-link-view';

const col = (name: string, data_type = 'VARCHAR') => ({ name, data_type });
const orders = [
  col('order_id', 'INTEGER'),
  col('customer_id', 'INTEGER'),
  col('category'),
  col('status'),
  col('quantity', 'INTEGER'),
];
const customers = [col('customer_id', 'INTEGER'), col('name'), col('country')];

/** The demo split as a session over all sources holds it: every table under `source.table`. */
const qualified: LinkSchema = {
  tables: { 'shop.orders': orders, 'crm.customers': customers },
  values: {
    'shop.orders': { category: ['books', 'toys'], status: ['delivered', 'returned'] },
    'crm.customers': { country: ['France', 'Germany'] },
  },
  streaming: false,
  comments: { 'crm.customers': 'one row per customer' },
  keys: {
    'crm.customers': { primaryKey: ['customer_id'], foreignKeys: [] },
    'shop.orders': {
      primaryKey: ['order_id'],
      foreignKeys: [{ columns: ['customer_id'], references: { table: 'shop.customers_archive', columns: ['id'] } }],
    },
  },
};

describe('sourcesLinkView', () => {
  it('shows every table a single source holds under its own name, with its values, comment and keys', () => {
    const view = sourcesLinkView(qualified);
    expect(Object.keys(view.tables).sort()).toEqual(['customers', 'orders']);
    expect(view.tables.orders).toBe(orders);
    expect(view.values).toEqual({ orders: { category: ['books', 'toys'], status: ['delivered', 'returned'] }, customers: { country: ['France', 'Germany'] } }); // prettier-ignore
    expect(view.comments).toEqual({ customers: 'one row per customer' });
    // A key's referenced table is renamed too; one the view does not hold stays qualified.
    expect(view.keys?.orders?.foreignKeys?.[0]?.references.table).toBe('shop.customers_archive');
    expect(view.keys?.customers?.primaryKey).toEqual(['customer_id']);
  });

  it('shows a table two sources hold once, under its name, with both holders’ values', () => {
    const view = sourcesLinkView({
      ...qualified,
      tables: { ...qualified.tables, 'warehouse.customers': customers },
      values: { ...qualified.values, 'warehouse.customers': { country: ['Austria', 'Germany'] } },
    });
    expect(Object.keys(view.tables).sort()).toEqual(['customers', 'orders']);
    expect(view.values?.customers).toEqual({ country: ['Austria', 'France', 'Germany'] });
  });

  it('lets the linker read a table by the word a request uses, as over one database', () => {
    // Over qualified names 'customers' is not the table crm.customers to the linker: two tables fit equally.
    const request = 'how many different customers bought books, per country';
    const over = (schema: LinkSchema) => proposePlan(linkRequest(request, schema), schema);
    expect(over(qualified).plan).toBeNull();
    const viewed = over(sourcesLinkView(qualified));
    expect(viewed.confidence).toBe('high');
    expect(viewed.plan?.source).toBe('customers');
    expect(JSON.stringify(viewed.plan?.where)).toContain('books');
  });
});
