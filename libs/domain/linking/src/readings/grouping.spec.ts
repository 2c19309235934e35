import { readingCorpus, type Example } from '../testing/corpus';

describe('grouping', () => {
  // The GROUP BY.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Average temperature per device.', means: 'device_id' },
    { say: 'Number of orders per customer segment.', means: 'customers.segment' },
    { say: 'Revenue (quantity times unit price) per customer country.', means: 'customers.country' },
    { say: 'Which segment has the most customers?', means: 'segment' },
    // The noun a limit ranks, when something is computed per it.
    { say: 'The 3 devices with the highest average temperature.', means: 'device_id' },
    // `which`/`each` with nothing computed is a quantifier; a table is not grouped by its own rows.
    { say: 'Which orders were cancelled?', means: '' },
    { say: 'Average quantity per order.', means: '' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.groupBy ?? null);
});
