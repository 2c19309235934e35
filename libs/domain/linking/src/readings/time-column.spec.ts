import { readingCorpus, type Example } from '../testing/corpus';

/** [the time bucket, the doubt about which time column]. */
type Time = [bucket: string | null, doubt: string | null];

describe('time-column', () => {
  const EXAMPLES: Example<Time>[] = [
    // One time column: no question.
    { say: 'Number of orders per day.', means: ['bucket 1 day of ordered_at', null] },
    // Two: the one the request names, else the first with a doubt.
    { say: 'Number of trips per day by pickup time.', on: 'taxi', means: ['bucket 1 day of pickup_ts', null] },
    {
      say: 'Number of trips per day.',
      on: 'taxi',
      means: ['bucket 1 day of pickup_ts', 'which time column: pickup_ts, dropoff_ts'],
    },
  ];
  readingCorpus(EXAMPLES, (p, plan): Time => [
    plan?.time || null,
    p.doubts.find((d) => d.startsWith('which time column')) ?? null,
  ]);
});
