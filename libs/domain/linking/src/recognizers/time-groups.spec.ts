import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

type Group = [text: string, unit: string, size: number, window: string | null];
const groupsOf = (l: Links): Group[] => l.timeGroups.map((g) => [g.text, g.unit, g.size, g.window]);

describe('time-groups', () => {
  describe('windows (explicit: they say the most)', () => {
    const EXAMPLES: Example<Group[]>[] = [
      {
        say: 'Average temperature in a sliding window of the last 30 seconds.',
        on: 'stream',
        means: [['sliding window of the last 30 seconds', 'second', 30, 'sliding']],
      },
      {
        say: 'Average speed over a 5-minute rolling window.',
        on: 'stream',
        means: [['5-minute rolling', 'minute', 5, 'sliding']],
      },
      {
        say: 'Count vehicles in a hopping window of 10 minutes advancing every 5 minutes.',
        on: 'stream',
        means: [['hopping window of 10 minutes advancing every 5 minutes', 'minute', 10, 'hopping']],
      },
      {
        say: 'Average speed in windows of 100 readings.',
        on: 'stream',
        means: [['windows of 100 readings', 'second', 100, 'count']],
      },
      // On SQL targets a window is a bucket: no window kind.
      {
        say: 'Average temperature in a sliding window of 30 seconds.',
        means: [['sliding window of 30 seconds', 'second', 30, null]],
      },
    ];
    linkCorpus(EXAMPLES, groupsOf);
  });

  describe('periods', () => {
    const EXAMPLES: Example<Group[]>[] = [
      { say: 'Average temperature per hour.', means: [['per hour', 'hour', 1, null]] },
      { say: 'Maximum humidity in 10-minute buckets.', means: [['10-minute buckets', 'minute', 10, null]] },
      { say: 'Average speed every 10 seconds.', on: 'stream', means: [['every 10 seconds', 'second', 10, 'tumbling']] },
      {
        say: 'Average speed every 100 readings.',
        on: 'stream',
        means: [['every 100 readings', 'second', 100, 'count']],
      },
      { say: 'Daily revenue.', means: [['Daily', 'day', 1, null]] },
      { say: 'Which day had the most orders?', means: [['day', 'day', 1, null]] },
      // Not a grouping: a plural unit after `in` is a duration, and a range is no period.
      { say: 'Orders delivered in hours.', means: [] },
      { say: 'Orders placed in the last 7 days.', means: [] },
    ];
    linkCorpus(EXAMPLES, groupsOf);
  });

  describe('a day bucket shown as a date', () => {
    const EXAMPLES: Example<boolean[]>[] = [
      { say: 'Average humidity per device per day (the day as a date).', means: [true] },
      { say: 'Average humidity per day.', means: [false] },
    ];
    linkCorpus(EXAMPLES, (l) => l.timeGroups.map((g) => g.asDate));
  });
});
