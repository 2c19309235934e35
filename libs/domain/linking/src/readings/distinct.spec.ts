import { readingCorpus, type Example } from '../testing/corpus';

describe('distinct', () => {
  const EXAMPLES: Example<boolean | null>[] = [
    { say: 'The names of the customers who ordered a Gateway Hub, each name once.', means: true },
    { say: 'List the distinct categories of the orders.', means: true },
    { say: 'List the categories of the orders.', means: false },
    // Aggregated: no DISTINCT rows.
    { say: 'How many different customers have placed at least one order?', means: false },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.distinct ?? null);
});
