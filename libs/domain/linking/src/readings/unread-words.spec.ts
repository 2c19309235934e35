import { readingCorpus, type Example } from '../testing/corpus';

/** [confidence, the doubts about words no link read]. */
type Said = [confidence: string, doubts: string[]];

describe('unread-words', () => {
  // A plan that leaves an answer-changing word unread is not conclusive, and says which.
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'orders with the same quantity as the previous order',
      means: ['partial', ['"same" was not understood', '"previous" was not understood']],
    },
    { say: 'the growth of the quantity for each order', means: ['partial', ['"growth" was not understood']] },
    // A ratio whose second side is not said is no ratio link: its word stays unread.
    { say: 'the ratio of delivered orders', means: ['partial', ['"ratio" was not understood']] },
    { say: 'number of orders per status', means: ['high', []] },
  ];
  readingCorpus(EXAMPLES, (p): Said => [p.confidence, p.doubts.filter((d) => d.endsWith('was not understood'))]);
});
