import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, ambiguous phrases]. */
type Said = [select: string | null, ambiguous: string[]];

describe('projection', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'Show the time and temperature of every reading from device dev-03.', means: ['ts, temperature', []] },
    { say: 'Which orders were cancelled? Give the order id and the product.', means: ['order_id, product', []] },
    { say: 'The 10 most recent orders, newest first: order id and order time.', means: ['order_id, ordered_at', []] },
    { say: 'Revenue (quantity times unit price) of each order.', means: ['(quantity * unit_price) AS revenue', []] },
    // Grouped: keys, then aggregates, then an aggregate the order sorts on.
    {
      say: 'Number of readings per device, sorted by temperature.',
      means: ['device_id, count(*), max(temperature)', []],
    },
    // Naming the table is asking for its rows.
    { say: 'Show all devices.', means: ['', []] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [plan?.select ?? null, p.ambiguous.map((a) => a.phrase)]);
});
