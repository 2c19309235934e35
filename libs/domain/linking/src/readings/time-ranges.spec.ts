import { readingCorpus, type Example } from '../testing/corpus';

describe('time-ranges', () => {
  // The WHERE a date range makes, or the doubt when it cannot.
  const EXAMPLES: Example<string>[] = [
    {
      say: 'Number of orders placed in February 2024.',
      means: "ordered_at >= '2024-02-01 00:00:00' AND ordered_at < '2024-03-01 00:00:00'",
    },
    { say: 'Orders placed since March 2024.', means: "ordered_at >= '2024-03-01 00:00:00'" },
    { say: 'Average speed in February 2024.', on: 'stream', means: 'a stream has no date range to filter on' },
  ];
  readingCorpus(EXAMPLES, (p, plan) => plan?.where || p.doubts.join('; '));
});
