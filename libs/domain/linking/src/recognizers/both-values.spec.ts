import { stateCorpus, type Example } from '../testing/corpus';

/** The values said after `both`, each of which the rows must have. */
type Said = string[][];

describe('both-values', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'customers who ordered both books and electronics', means: [['books', 'electronics']] },
    { say: 'segments with both a customer in France and a customer in Germany', means: [['France', 'Germany']] },
    // Values of different columns: no intersection to read.
    { say: 'orders both shipped and books', means: [] },
    // `shared by` / `common to` say the same: each set must have the answer.
    { say: 'segments shared by customers in France and customers in Germany', means: [['France', 'Germany']] },
    { say: 'categories common to France and Germany', means: [['France', 'Germany']] },
    // Either one: no intersection.
    { say: 'segments shared by customers in France or Germany', means: [] },
    // One value only.
    { say: 'both books orders', means: [] },
  ];
  stateCorpus('both-values', EXAMPLES, (s): Said =>
    s.allOf.map((a) => a.terms.map((id) => s.terms.find((t) => t.id === id)?.text ?? '?')),
  );
});
