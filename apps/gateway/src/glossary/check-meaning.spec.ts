import type { WordMeaning } from '@nl2p/envelope';
import { meaningProblems } from './check-meaning';
import { parseCondition, parseExpr } from './meaning-text';

const TABLES = {
  orders: [
    { name: 'order_id', data_type: 'INTEGER' },
    { name: 'status', data_type: 'VARCHAR' },
    { name: 'quantity', data_type: 'INTEGER' },
    { name: 'unit_price', data_type: 'DOUBLE' },
  ],
  customers: [
    { name: 'customer_id', data_type: 'INTEGER' },
    { name: 'country', data_type: 'VARCHAR' },
  ],
};
const condition = (table: string, text: string): WordMeaning => ({
  kind: 'condition',
  table,
  where: parseCondition(text),
});

describe('a definition checked against the schema', () => {
  it.each<[string, WordMeaning]>([
    ['a text condition', condition('orders', "status <> 'closed'")],
    ['a list', condition('customers', "country in ('FR', 'DE')")],
    ['a number condition', condition('orders', 'quantity >= 10 and unit_price < 5')],
    ['an expression', { kind: 'expr', table: 'orders', expr: parseExpr('quantity * unit_price') }],
    ['a value', { kind: 'value', table: 'orders', column: 'status', value: 'shipped' }],
    ['a table', { kind: 'table', table: 'customers' }],
  ])('accepts %s the data has', (_what, means) => {
    expect(meaningProblems(means, TABLES)).toEqual([]);
  });

  it.each<[string, WordMeaning, RegExp]>([
    [
      'an unknown column',
      condition('orders', "state <> 'closed'"),
      /no column 'state' in orders; did you mean status\?/,
    ],
    ['an unknown table', { kind: 'table', table: 'order' }, /^no table 'order'; did you mean orders\?$/],
    ['a column of another table', condition('orders', "country in ('FR')"), /no column 'country' in orders/],
    [
      'an expression over a missing column',
      { kind: 'expr', table: 'orders', expr: parseExpr('qty * unit_price') },
      /'qty'/,
    ],
    ['a column compared with the wrong kind', condition('orders', "quantity > 'many'"), /quantity/],
  ])('refuses %s, naming it', (_what, means, why) => {
    const problems = meaningProblems(means, TABLES);
    expect(problems.join('; ')).toMatch(why);
  });
});
