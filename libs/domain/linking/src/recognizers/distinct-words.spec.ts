import { stateCorpus, tokenWords, type Example } from '../testing/corpus';

/** [rows asked distinct, the distinct words]. */
type Said = [distinctRows: boolean, words: string[]];

describe('distinct-words', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'The distinct categories of products.', means: [false, ['distinct']] },
    { say: 'How many different customers ordered?', means: [false, ['different']] },
    { say: 'The names of the customers, each name once.', means: [true, []] },
    { say: 'Customer countries without duplicates.', means: [true, []] },
    { say: 'All orders.', means: [false, []] },
  ];
  stateCorpus('distinct-words', EXAMPLES, (s): Said => [s.distinct, tokenWords(s, s.distinctAt)]);
});
