import { readingCorpus, type Example } from '../testing/corpus';

/** [the table read from, confidence]. */
type Source = [table: string | null, confidence: string];

describe('source-table', () => {
  const EXAMPLES: Example<Source>[] = [
    { say: 'List the names of our customers from Germany.', means: ['customers', 'high'] },
    { say: 'average rating of drivers from Newark', on: 'taxi', means: ['drivers', 'high'] },
    { say: 'average fare of Metro Taxi trips', on: 'taxi', means: ['trips', 'high'] },
    // What is aggregated anchors the table: the revenue is in orders, the country in customers.
    { say: 'Revenue (quantity times unit price) per customer country.', means: ['orders', 'high'] },
    // No word naming data: no table, no plan.
    { say: 'Show me the data.', means: [null, 'none'] },
    { say: 'Which one is the best?', means: [null, 'none'] },
  ];
  readingCorpus(EXAMPLES, (p): Source => [p.table, p.confidence]);
});
