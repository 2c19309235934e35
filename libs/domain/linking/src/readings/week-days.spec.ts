import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** Day names held as text, no time column. */
const checkins: LinkSchema = {
  streaming: false,
  values: { checkin: { day: ['Friday', 'Monday', 'Saturday', 'Sunday', 'Thursday', 'Tuesday', 'Wednesday'] } },
  tables: { checkin: [{ name: 'business_id', data_type: 'VARCHAR' }, { name: 'day', data_type: 'VARCHAR' }, { name: 'count', data_type: 'INTEGER' }] },
}; // prettier-ignore

describe('week-days', () => {
  // The WHERE the days make, or the doubt when they cannot.
  const EXAMPLES: Example<string>[] = [
    { say: 'How many orders were placed on weekends?', means: 'day_of_week(ordered_at) IN (0, 6)' },
    { say: 'Average fare of trips on weekdays.', on: 'taxi', means: 'day_of_week(pickup_ts) IN (1, 2, 3, 4, 5)' },
    // No time column, but a column of day names: its values.
    { say: 'total check-ins on weekends for each business', on: checkins, means: "day IN ('Sunday', 'Saturday')" },
    {
      say: 'average speed on weekends',
      on: 'stream',
      means: '"weekends": a stream\'s days of the week are not compared',
    },
  ];
  readingCorpus(EXAMPLES, (p, plan) => plan?.where || p.doubts.join('; '));
});
