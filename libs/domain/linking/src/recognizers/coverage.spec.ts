import { stateCorpus, tokenWords, type Example } from '../testing/corpus';

describe('coverage', () => {
  // The words no link or cue covers (filler or unlinked, decided after).
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Average temperature per device.', means: ['.'] },
    { say: 'Show the orders with a quantity of at least 4.', means: ['Show', 'the', 'with', 'a', 'of', '.'] },
    { say: 'How many readings are there in total?', means: ['are', 'there', 'in', '?'] },
    { say: 'Average wind speed per device.', means: ['wind', 'speed', '.'] },
  ];
  stateCorpus('coverage', EXAMPLES, (s) =>
    tokenWords(
      s,
      s.tokens.map((t) => t.i).filter((k) => !s.covered.has(k)),
    ),
  );
});
