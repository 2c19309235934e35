import type { LinkSchema } from '../types';
import { linkCorpus, type Example } from '../testing/corpus';

/** Yes/no columns named after the days: the words are those columns (terms), not days to compare. */
const offerings: LinkSchema = {
  streaming: false,
  tables: { course_offering: [{ name: 'course_id', data_type: 'INTEGER' }, { name: 'monday', data_type: 'BOOLEAN' }, { name: 'thursday', data_type: 'BOOLEAN' }] },
}; // prettier-ignore

describe('week-days', () => {
  const EXAMPLES: Example<[string, number[]][]>[] = [
    { say: 'number of orders placed on weekends', means: [['weekends', [0, 6]]] },
    { say: 'number of orders placed on weekdays', means: [['weekdays', [1, 2, 3, 4, 5]]] },
    { say: 'readings taken on Mondays and Wednesdays', means: [['Mondays and Wednesdays', [1, 3]]] },
    { say: 'trips on Saturday', on: 'taxi', means: [['Saturday', [6]]] },
    // A grouping, not a condition; when a period starts, not which days.
    { say: 'orders per weekday', means: [] },
    { say: 'Number of orders per week (weeks start on Monday).', means: [] },
    // A column named after the day: that column's.
    { say: 'courses offered on thursday', on: offerings, means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => (l.weekDays ?? []).map((w): [string, number[]] => [w.text, w.days]));
});
