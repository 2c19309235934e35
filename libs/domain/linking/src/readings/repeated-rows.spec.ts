import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';
import type { LinkSchema } from '../types';

/** [SELECT, DISTINCT]. */
type Said = [select: string | null, distinct: boolean | null];

/** Apartments and their bookings: a booking refers to one apartment, an apartment has many. */
const rentals: LinkSchema = {
  streaming: false,
  values: { bookings: { status_code: ['Confirmed', 'Provisional'] } },
  tables: {
    apartments: [{ name: 'apt_id', data_type: 'INTEGER' }, { name: 'apt_number', data_type: 'VARCHAR' }, { name: 'room_count', data_type: 'INTEGER' }],
    bookings: [{ name: 'booking_id', data_type: 'INTEGER' }, { name: 'apt_id', data_type: 'INTEGER' }, { name: 'status_code', data_type: 'VARCHAR' }, { name: 'start_date', data_type: 'DATE' }],
  },
  keys: {
    apartments: { primaryKey: ['apt_id'] },
    bookings: { primaryKey: ['booking_id'], foreignKeys: [{ columns: ['apt_id'], references: { table: 'apartments', columns: ['apt_id'] } }] },
  },
}; // prettier-ignore

describe('repeated-rows', () => {
  const EXAMPLES: Example<Said>[] = [
    // Only the "one" side shown: each apartment once, however many bookings it has.
    {
      say: 'Which apartments have bookings with status code "Confirmed"? Return their apartment numbers.',
      on: rentals,
      means: ['apartments.apt_number', true],
    },
    // Through a table that pairs authors and papers: each author once.
    { say: 'names of the authors who wrote a paper in 2020', on: scholarSchema(), means: ['author.authorname', true] },
    // A column of the joined rows themselves shown: each row is one booking, nothing repeats.
    {
      say: 'Show the apartment number and the start date of each booking with status code "Confirmed".',
      on: rentals,
      means: ['booking_id, apartments.apt_number, start_date', false],
    },
    // Sorted on a column of the joined rows, not shown: the rows stay as joined.
    {
      say: 'Which apartments have bookings with status code "Confirmed"? Return their apartment numbers, sorted by start date.',
      on: rentals,
      means: ['apartments.apt_number', false],
    },
    // No join: the rows are the table's own.
    { say: 'apartment numbers of the apartments with more than 3 rooms', on: rentals, means: ['apt_number', false] },
  ];
  readingCorpus(EXAMPLES, (_p, plan): Said => [plan?.select ?? null, plan ? plan.distinct : null]);
});
