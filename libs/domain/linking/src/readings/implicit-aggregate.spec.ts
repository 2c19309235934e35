import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, the doubt]. */
type Said = [select: string | null, doubt: string | null];

describe('implicit-aggregate', () => {
  // Grouped with no aggregate word: what is computed per group.
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'Revenue per product, where revenue is quantity times unit price.',
      means: ['product, sum((quantity * unit_price))', null],
    },
    { say: 'Quantity per product.', means: ['product, sum(quantity)', 'no aggregate said for "Quantity"'] },
    { say: 'Temperature per device.', means: ['device_id, avg(temperature)', 'no aggregate said for "Temperature"'] },
    { say: 'Which segment has the most customers?', means: ['segment, count(*)', null] },
    { say: 'Customers per country.', means: ['country, count(*)', 'grouped without saying what to compute'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.select ?? null,
    p.doubts.find((d) => d.startsWith('no aggregate said') || d.startsWith('grouped without')) ?? null,
  ]);
});
