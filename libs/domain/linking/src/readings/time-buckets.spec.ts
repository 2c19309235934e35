import { readingCorpus, type Example } from '../testing/corpus';

describe('time-buckets', () => {
  // The time grouping: a bucket on SQL targets, a window on streams.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Number of orders per month.', means: 'bucket 1 month of ordered_at' },
    { say: 'Average humidity per device per day (the day as a date).', means: 'bucket 1 day of ts as date' },
    { say: 'Average speed per vehicle every 10 seconds.', on: 'stream', means: 'tumbling window 10 second' },
    { say: 'Average speed in a sliding window of 30 seconds.', on: 'stream', means: 'sliding window 30 second' },
    { say: 'Average speed in windows of 100 readings.', on: 'stream', means: 'count window 100' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.time ?? null);
});
