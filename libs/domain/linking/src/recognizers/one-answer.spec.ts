import { linkCorpus, type Example } from '../testing/corpus';

describe('one-answer', () => {
  // The words read as "one answer" (a limit of 1).
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Which device has the lowest average battery level?', means: ['Which device'] },
    { say: 'On which day was the total revenue highest?', means: ['which day'] },
    { say: 'The driver with the best rating.', on: 'taxi', means: ['The'] },
    // Plural, or a limit said: not one answer.
    { say: 'Which devices have the highest temperature?', means: [] },
    { say: 'The 3 devices with the highest temperature.', means: [] },
    { say: 'Which device is in hamburg-port?', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.orders.filter((o) => o.limit === 1).map((o) => o.text));
});
