import { ordersAddedBy, type Example } from '../testing/corpus';

/** [words, what it sorts on]: the order this rule adds. */
type Said = [words: string, key: string | null];

describe('order-of', () => {
  const EXAMPLES: Example<Said[]>[] = [
    { say: 'Customers in order of their name.', means: [['in order of their name', 'term']] },
    { say: 'List the products in the order of unit price.', means: [['in the order of unit price', 'term']] },
    // A direction said is direction-order's.
    { say: 'Customers in descending order of their name.', means: [] },
    // Several keys are not read here: the words stay unread (inconclusive), not half read.
    { say: 'Customers in order of country and name.', means: [] },
    { say: 'Orders in order.', means: [] },
    // A sort verb, past its object, on an aggregate (a noun after `by` is groups').
    {
      say: 'Number of orders per status. Order the result by the count of orders.',
      means: [['Order the result by the count of orders', 'aggregate']],
    },
    {
      say: 'Total quantity per product, sorted by the total quantity.',
      means: [['sorted by the total quantity', 'aggregate']],
    },
    { say: 'Customers sorted by name.', means: [] },
  ];
  it.each(EXAMPLES.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    const added = ordersAddedBy(e.say, 'order-of', e.on);
    expect(added.map((o): Said => [o.text, o.key ? (Object.keys(o.key)[0] ?? null) : null])).toEqual(e.means);
  });
});
