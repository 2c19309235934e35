import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

/** [words, fn, what it applies to, counts rows, distinct]. */
type Agg = [words: string, fn: string, target: string | null, countsRows: boolean, distinct: boolean];

const aggregatesOf = (l: Links): Agg[] =>
  l.aggregates.map((a) => {
    const target = !a.target
      ? null
      : 'term' in a.target
        ? (l.terms[a.target.term]?.text ?? '?')
        : `(${l.arithmetic[a.target.arithmetic]?.text ?? '?'})`;
    return [a.text, a.fn, target, a.countsRows, a.distinct];
  });

describe('aggregates', () => {
  const EXAMPLES: Example<Agg[]>[] = [
    { say: 'Average temperature per device.', means: [['Average', 'avg', 'temperature', false, false]] },
    { say: 'How many orders were delivered?', means: [['How many', 'count', 'orders', true, false]] },
    {
      say: 'How many readings are there in total?',
      means: [
        ['How many', 'count', 'readings', true, false],
        ['total', 'sum', null, false, false],
      ],
    },
    { say: 'How many different customers have ordered?', means: [['How many', 'count', 'customers', true, true]] },
    // A table named before one of its measures qualifies it: the measure is averaged.
    { say: 'The average order quantity.', means: [['average', 'avg', 'quantity', false, false]] },
    {
      say: 'Total revenue (quantity times unit price).',
      means: [['Total', 'sum', '(quantity times unit price)', false, false]],
    },
    { say: 'Revenue per product, where revenue is quantity times unit price.', means: [] },
    // A list of cues shares what follows the last one.
    {
      say: 'The maximum, minimum and average fare.',
      on: 'taxi',
      means: [
        ['maximum', 'max', 'fare', false, false],
        ['minimum', 'min', 'fare', false, false],
        ['average', 'avg', 'fare', false, false],
      ],
    },
    {
      say: 'Sum of the revenue, where revenue is quantity times unit price.',
      means: [['Sum', 'sum', '(quantity times unit price)', false, false]],
    },
  ];
  linkCorpus(EXAMPLES, aggregatesOf);
});
