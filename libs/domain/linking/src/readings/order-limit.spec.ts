import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';
import { meaningSchema } from '../testing/meaning-schema';

/** [ORDER BY, LIMIT, OFFSET, the reading or doubt about the order]. */
type Said = [orderBy: string | null, limit: number | null, offset: number | null, note: string | null];

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

const apartments: LinkSchema = {
  streaming: false,
  tables: { apartments: [{ name: 'apt_id', data_type: 'INTEGER' }, { name: 'apt_number', data_type: 'VARCHAR' }, { name: 'room_count', data_type: 'VARCHAR' }, { name: 'bathroom_count', data_type: 'INTEGER' }] },
}; // prettier-ignore

const trains: LinkSchema = {
  streaming: false,
  tables: { train: [{ name: 'Train_ID', data_type: 'INTEGER' }, { name: 'Name', data_type: 'VARCHAR' }, { name: 'Time', data_type: 'VARCHAR' }] },
}; // prettier-ignore

describe('order-limit', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'The 3 devices with the highest average temperature.', means: ['avg(temperature) desc', 3, 0, null] },
    {
      say: 'The 10 most recent orders, newest first: order id and order time.',
      means: ['ordered_at desc', 10, 0, null],
    },
    { say: 'The 3 hottest readings: time, device and temperature.', means: ['temperature desc', 3, 0, null] },
    { say: 'Which segment has the most customers?', means: ['count(*) desc', 1, 0, null] },
    { say: 'Which device has the lowest average battery level?', means: ['avg(battery) asc', 1, 0, null] },
    // An order without a direction is ascending, as SQL's own, and the turn says so.
    {
      say: 'Orders sorted by quantity.',
      means: ['quantity asc', null, 0, '"sorted by quantity" is read as ascending'],
    },
    {
      say: 'names of the drivers sorted by age',
      on: meaningSchema(),
      means: ['age asc', null, 0, '"sorted by age" is read as ascending'],
    },
    { say: 'which region has the most plants?', on: meaningSchema(), means: ['count(*) desc', 1, 0, null] },
    // A rank said as an ordinal: the one row after the ones ranked before it.
    {
      say: 'the second highest unit price',
      means: ['unit_price desc', 1, 1, '"second" is read as the one ranked after the first 1'],
    },
    {
      say: 'the order with the 2nd highest quantity',
      means: ['quantity desc', 1, 1, '"2nd" is read as the one ranked after the first 1'],
    },
    {
      say: 'Which customer has the third most orders?',
      means: ['count(*) desc', 1, 2, '"third" is read as the one ranked after the first 2'],
    },
    // A table after a superlative, ungrouped: a measure of it, never its key as a number.
    { say: 'the trip with the fewest drivers', on: 'taxi', means: ['', 1, 0, 'nothing to sort "fewest" on'] },
    // The direction said before `order by`, over the same words.
    { say: 'order ids in descending order by unit price', means: ['unit_price desc', null, 0, null] },
    {
      say: 'Show all train names and times in descending order by train time.',
      on: trains,
      means: ['Time desc', null, 0, null],
    },
    // A count kept as text sorts as itself, not on a number only related in meaning.
    {
      say: 'apartment numbers in ascending order of room count',
      on: apartments,
      means: ['room_count asc', null, 0, null],
    },
    // `top N` with no other order ranks by the measure said right after it; with none, a doubt.
    { say: 'the top 3 expensive trips', on: 'taxi', means: ['fare_amt desc', 3, 0, null] },
    { say: 'the bottom 2 expensive orders', means: ['unit_price asc', 2, 0, null] },
    { say: 'the top 3 trips', on: 'taxi', means: ['', 3, 0, 'nothing to rank "top 3" by'] },
    { say: 'the first 3 trips', on: 'taxi', means: ['', 3, 0, null] },
    // A count said of a figure each row holds ranks the rows by it; nothing is summed.
    {
      say: 'List the names of companies by ascending number of sales.',
      on: figures,
      means: ['Sales_in_Billion asc', null, 0, null],
    },
    {
      say: 'What is the nationality of the journalist with the largest number of years working?',
      on: figures,
      means: ['Years_working desc', 1, 0, null],
    },
    // `the oldest X` with no time column: the age, highest first, one row.
    { say: 'Show the name of the oldest host.', on: figures, means: ['Age desc', 1, 0, null] },
    { say: 'Show the name of the youngest host.', on: figures, means: ['Age asc', 1, 0, null] },
    // A name sorts as itself.
    { say: 'Customers sorted by name.', means: ['name asc', null, 0, '"sorted by name" is read as ascending'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.orderBy ?? null,
    plan?.limit ?? null,
    plan?.offset ?? null,
    [...p.readings, ...p.doubts].find((d) => d.includes('sort') || d.includes('ascending') || d.includes('rank')) ??
      null,
  ]);
});
