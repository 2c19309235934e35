import { ordersAddedBy, type Example } from '../testing/corpus';

/** [words, direction, on time]: the order this rule adds. */
type Said = [words: string, direction: string | null, onTime: boolean];

describe('direction-order', () => {
  const EXAMPLES: Example<Said[]>[] = [
    { say: 'Orders sorted by quantity in descending order.', means: [['descending', 'desc', false]] },
    { say: 'The 10 most recent orders, newest first.', means: [['newest first', 'desc', true]] },
    { say: 'Orders sorted by quantity.', means: [] },
    // What the direction names right after it is the key.
    { say: 'Products in descending order of unit price.', means: [['descending order of unit price', 'desc', false]] },
    { say: 'Orders sorted by descending quantity.', means: [['descending quantity', 'desc', false]] },
    { say: 'Customers in ascending order of their name.', means: [['ascending order of their name', 'asc', false]] },
    // A table before its column names whose column it is.
    {
      say: "Customers in descending order of the customer's name.",
      means: [["descending order of the customer's name", 'desc', false]],
    },
    {
      say: 'Customers in descending order of the number of orders.',
      means: [['descending order of the number of orders', 'desc', false]],
    },
  ];
  it.each(EXAMPLES.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    const added = ordersAddedBy(e.say, 'direction-order', e.on);
    expect(added.map((o): Said => [o.text, o.direction, !!o.key && 'time' in o.key])).toEqual(e.means);
  });
});
