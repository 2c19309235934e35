import type { LinkSchema } from '../types';
import { linkCorpus, type Example } from '../testing/corpus';

const dealership: LinkSchema = {
  streaming: false,
  tables: {
    sales: [{ name: 'id', data_type: 'INTEGER' }, { name: 'sale_date', data_type: 'DATE' }, { name: 'sale_price', data_type: 'DOUBLE' }],
    payments_received: [{ name: 'id', data_type: 'INTEGER' }, { name: 'sale_id', data_type: 'INTEGER' }, { name: 'payment_date', data_type: 'DATE' }],
    user_sessions: [{ name: 'user_id', data_type: 'INTEGER' }, { name: 'session_start_ts', data_type: 'TIMESTAMP' }, { name: 'session_end_ts', data_type: 'TIMESTAMP' }, { name: 'device_type', data_type: 'VARCHAR' }],
  },
}; // prettier-ignore

/** [the words read as a time elapsed, its unit]. */
type Elapsed = [text: string, unit: string];

describe('elapsed', () => {
  const EXAMPLES: Example<Elapsed[]>[] = [
    {
      say: 'the average number of days between the sale date and payment received date',
      on: dealership,
      means: [['number of days between the sale date and payment received date', 'day']],
    },
    {
      say: 'the time between the sale date and the payment date in days',
      on: dealership,
      means: [['time between the sale date and the payment date in days', 'day']],
    },
    {
      say: 'hours from pickup to dropoff for each trip',
      on: 'taxi',
      means: [['hours from pickup to dropoff', 'hour']],
    },
    // One word naming a table that holds the start and the end.
    {
      say: 'the average user session duration in seconds per device type',
      on: dealership,
      means: [['user session duration in seconds', 'second']],
    },
    // No unit said: not read (the words stay for the accounting).
    { say: 'the time between the sale date and the payment date', on: dealership, means: [] },
  ];
  linkCorpus(EXAMPLES, (l) =>
    l.arithmetic.filter((a) => a.expr.elapsed).map((a): Elapsed => [a.text, a.expr.elapsed?.unit ?? '']),
  );
});
