import { stateCorpus, type Example } from '../testing/corpus';

type Limit = [words: string, limit: number];

describe('limits', () => {
  const EXAMPLES: Example<Limit[]>[] = [
    { say: 'The top 3 devices by average temperature.', means: [['top 3', 3]] },
    { say: 'The first 10 orders.', means: [['first 10', 10]] },
    { say: 'Show orders, limit 5.', means: [['limit 5', 5]] },
    { say: 'The 3 hottest readings.', means: [['3', 3]] },
    { say: 'The 10 most recent orders.', means: [['10', 10]] },
    { say: '5 most humid readings.', means: [['5', 5]] },
    // A number before a time unit is a duration; without a ranking word, a number is a value.
    { say: 'Orders in the first 10 days of March 2024.', means: [] },
    { say: 'The 3 orders of customer 7.', means: [] },
  ];
  stateCorpus('limits', EXAMPLES, (s) =>
    s.limits.map((l): Limit => [s.text.slice(s.tokens[l.start]?.start, s.tokens[l.end - 1]?.end), l.limit]),
  );
});
