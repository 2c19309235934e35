import { linkCorpus, words, type Example } from '../testing/corpus';

describe('unlinked', () => {
  // Content words that name nothing, adjacent ones joined; a column noun after one goes with it.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Average wind speed per device.', means: ['wind speed'] },
    { say: 'Total toll charges per vendor', on: 'taxi', means: ['toll charges'] },
    { say: 'Profit margin per product.', means: ['Profit margin'] },
    // Filler, cue words and defined words are not content.
    { say: 'Show me the data.', means: [] },
    { say: 'Revenue per product, where revenue is quantity times unit price.', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => words(l.unlinked));
});
