import { stateCorpus, type Example } from '../testing/corpus';

/** The comparisons the repeated noun makes two sets of. */
type Said = string[][];

describe('repeated-noun-conditions', () => {
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'customers that have orders with a quantity above 10 and orders with a quantity below 2',
      means: [['above 10', 'below 2']],
    },
    {
      say: 'Which vendors have trips with a fare above 50 and trips with a fare under 5?',
      on: 'taxi',
      means: [['above 50', 'under 5']],
    },
    // `shared by` before the first noun is the same cue, read (accounted for) with it.
    {
      say: 'customers shared by orders with a quantity above 10 and orders with a quantity below 2',
      means: [['above 10', 'below 2']],
    },
    // `or` is either one.
    { say: 'customers that have orders with a quantity above 10 or orders with a quantity below 2', means: [] },
    // One noun, two conditions: the same rows meet both (an AND).
    { say: 'customers that have orders with a quantity above 10 and below 20', means: [] },
    // The repeated noun is what is answered: not two sets of something else.
    { say: 'orders with a quantity above 10 and orders with a quantity below 2', means: [] },
  ];
  stateCorpus('repeated-noun-conditions', EXAMPLES, (s): Said =>
    s.allOf.flatMap((a) => (a.comparisons ? [a.comparisons.map((k) => s.comparisons[k]?.text ?? '?')] : [])),
  );
});
