import { linkCorpus, type Example } from '../testing/corpus';

/** [words, the words it defines]. */
type Arith = [words: string, defines: string[]];

describe('arithmetic', () => {
  const EXAMPLES: Example<Arith[]>[] = [
    {
      say: 'Revenue per product, where revenue is quantity times unit price.',
      means: [['quantity times unit price', ['revenue']]],
    },
    {
      say: 'Total revenue (quantity times unit price) per customer.',
      means: [['quantity times unit price', ['revenue']]],
    },
    { say: 'Fare minus tip of each trip.', on: 'taxi', means: [['Fare minus tip', []]] },
    { say: 'Fare divided by 2.', on: 'taxi', means: [['Fare divided by 2', []]] },
    // Chained left to right: one arithmetic.
    { say: 'Fare plus tip minus 1.', on: 'taxi', means: [['Fare plus tip minus 1', []]] },
    { say: 'How many times did each device report?', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.arithmetic.map((a): Arith => [a.text, a.defines]));
});
