import type { LinkSchema } from '../types';
import { stateCorpus, tokenWords, type Example } from '../testing/corpus';
import { range } from './rule';

/** [the cue's words, scale, a share (the whole may go unsaid)]. */
type Cue = [words: string, scale: number, share: boolean];

/** A column whose name begins with a cue word: the words name it. */
const elections: LinkSchema = {
  streaming: false,
  tables: {
    results: [
      { name: 'party', data_type: 'VARCHAR' },
      { name: 'share_of_votes', data_type: 'DOUBLE' },
    ],
  },
};

describe('ratio-cues', () => {
  const EXAMPLES: Example<Cue[]>[] = [
    { say: 'What is the ratio of delivered orders to cancelled orders?', means: [['ratio of', 1, false]] },
    { say: 'the ratio between fare and tip for each trip', on: 'taxi', means: [['ratio between', 1, false]] },
    { say: 'What percentage of orders were returned?', means: [['percentage of', 100, true]] },
    { say: 'the proportion of trips paid by card', on: 'taxi', means: [['proportion of', 1, true]] },
    { say: 'What share of customers are enterprises?', means: [['share of', 1, true]] },
    { say: 'the difference between the highest and the lowest price', means: [['difference between', 1, false]] },
    // No `of`: not a ratio cue (the word stays for the accounting to report).
    { say: 'Show the ratio for each device.', means: [] },
    { say: 'humidity below 40 percent', means: [] },
    // A column named by the words: the column, not a ratio.
    { say: 'the share of votes of each party', on: elections, means: [] },
    {
      say: 'What is the market share of the browser Safari?',
      on: {
        streaming: false,
        tables: {
          browser: [
            { name: 'name', data_type: 'VARCHAR' },
            { name: 'market_share', data_type: 'DOUBLE' },
          ],
        },
      },
      means: [],
    },
  ];
  stateCorpus('ratio-cues', EXAMPLES, (s) =>
    s.ratioCues.map((c): Cue => [tokenWords(s, range(c.start, c.end)).join(' '), c.scale, c.share]),
  );
});
