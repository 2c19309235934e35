import { stateCorpus, type Example } from '../testing/corpus';

/** The comparisons said after `both`, each of which some rows must meet. */
type Said = string[][];

describe('both-conditions', () => {
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'customers with both orders with a quantity above 10 and orders with a quantity below 2',
      means: [['above 10', 'below 2']],
    },
    {
      say: 'Which vendors have both trips with a fare above 50 and trips with a fare under 5?',
      on: 'taxi',
      means: [['above 50', 'under 5']],
    },
    // `or` is either one, no intersection.
    { say: 'customers with both orders above 10 or orders below 2', means: [] },
    // Far from `both`, the conditions are the request's own.
    {
      say: 'both customers and products, for orders made in shops in towns with a quantity above 10 and below 20',
      means: [],
    },
    // Values after `both` are both-values'.
    { say: 'customers who ordered both books and electronics', means: [] },
  ];
  stateCorpus('both-conditions', EXAMPLES, (s): Said =>
    s.allOf.flatMap((a) => (a.comparisons ? [a.comparisons.map((k) => s.comparisons[k]?.text ?? '?')] : [])),
  );
});
