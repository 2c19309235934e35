import { stateCorpus, type Example } from '../testing/corpus';

/** The values said after `both`, each of which the rows must have. */
type Said = string[][];

describe('both-values', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'customers who ordered both books and electronics', means: [['books', 'electronics']] },
    { say: 'segments with both a customer in France and a customer in Germany', means: [['France', 'Germany']] },
    // Values of different columns: no intersection to read.
    { say: 'orders both shipped and books', means: [] },
    // One value only.
    { say: 'both books orders', means: [] },
  ];
  stateCorpus('both-values', EXAMPLES, (s): Said =>
    s.allOf.map((a) => a.terms.map((id) => s.terms.find((t) => t.id === id)?.text ?? '?')),
  );
});
