import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';
import { meaningSchema } from '../testing/meaning-schema';

/** [ORDER BY, LIMIT, the reading or doubt about the order]. */
type Said = [orderBy: string | null, limit: number | null, note: string | null];

/** Companies and journalists whose rows hold their own figures (sales, years working). */
const figures: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    company: [
      { name: 'Company_ID', data_type: 'INTEGER' },
      { name: 'Name', data_type: 'VARCHAR' },
      { name: 'Sales_in_Billion', data_type: 'DOUBLE' },
    ],
    host: [
      { name: 'Host_ID', data_type: 'INTEGER' },
      { name: 'Name', data_type: 'VARCHAR' },
      { name: 'Age', data_type: 'INTEGER' },
    ],
    journalist: [
      { name: 'journalist_ID', data_type: 'INTEGER' },
      { name: 'Nationality', data_type: 'VARCHAR' },
      { name: 'Years_working', data_type: 'INTEGER' },
    ],
  },
};

describe('order-limit', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'The 3 devices with the highest average temperature.', means: ['avg(temperature) desc', 3, null] },
    { say: 'The 10 most recent orders, newest first: order id and order time.', means: ['ordered_at desc', 10, null] },
    { say: 'The 3 hottest readings: time, device and temperature.', means: ['temperature desc', 3, null] },
    { say: 'Which segment has the most customers?', means: ['count(*) desc', 1, null] },
    { say: 'Which device has the lowest average battery level?', means: ['avg(battery) asc', 1, null] },
    // An order without a direction is ascending, as SQL's own, and the turn says so.
    { say: 'Orders sorted by quantity.', means: ['quantity asc', null, '"sorted by quantity" is read as ascending'] },
    {
      say: 'names of the drivers sorted by age',
      on: meaningSchema(),
      means: ['age asc', null, '"sorted by age" is read as ascending'],
    },
    { say: 'which region has the most plants?', on: meaningSchema(), means: ['count(*) desc', 1, null] },
    // A count said of a figure each row holds ranks the rows by it; nothing is summed.
    {
      say: 'List the names of companies by ascending number of sales.',
      on: figures,
      means: ['Sales_in_Billion asc', null, null],
    },
    {
      say: 'What is the nationality of the journalist with the largest number of years working?',
      on: figures,
      means: ['Years_working desc', 1, null],
    },
    // `the oldest X` with no time column: the age, highest first, one row.
    { say: 'Show the name of the oldest host.', on: figures, means: ['Age desc', 1, null] },
    { say: 'Show the name of the youngest host.', on: figures, means: ['Age asc', 1, null] },
    // A name sorts as itself.
    { say: 'Customers sorted by name.', means: ['name asc', null, '"sorted by name" is read as ascending'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.orderBy ?? null,
    plan?.limit ?? null,
    [...p.readings, ...p.doubts].find((d) => d.includes('sort') || d.includes('ascending')) ?? null,
  ]);
});
