import { linkCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [the range's words, its hint]. */
type Dated = [text: string, hint: string[]];

describe('event-verbs', () => {
  const EXAMPLES: Example<Dated[]>[] = [
    {
      say: 'titles of the papers published in the year 2020',
      on: scholarSchema(),
      means: [['published in the year 2020', ['published']]],
    },
    {
      say: 'How many customers signed up in the last 6 months?',
      means: [['signed up in the last 6 months', ['signed']]],
    },
    { say: 'Devices that were activated in 2023.', means: [['activated in 2023', ['activated']]] },
    // A verb naming a time column is a term (it picks the column), not a hint.
    { say: 'Devices installed in 2023.', means: [['in 2023', []]] },
    // No range: nothing to date.
    { say: 'Which authors published the most papers?', on: scholarSchema(), means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.timeRanges.map((r): Dated => [r.text, r.hint]));
});
