import type { LinkSchema } from '../types';
import { stateCorpus, type Example } from '../testing/corpus';

/** [words, fn, superlative]. */
type Cue = [words: string, fn: string | null, superlative: boolean];

/** A column whose name begins with a cue: the figure is in the data. */
const stations: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    station: [
      { name: 'name', data_type: 'VARCHAR' },
      { name: 'Number_of_Platforms', data_type: 'INTEGER' },
      { name: 'Average_Attendance', data_type: 'DOUBLE' },
    ],
  },
};

describe('aggregate-cues', () => {
  const EXAMPLES: Example<Cue[]>[] = [
    { say: 'How many orders were delivered?', means: [['How many', 'count', false]] },
    // The cue begins a column's whole name: the column, not an aggregate of it.
    { say: 'Show the name and number of platforms of each station.', on: stations, means: [] },
    { say: 'Stations by average attendance.', on: stations, means: [] },
    { say: 'The average number of platforms.', on: stations, means: [['average', 'avg', false]] },
    { say: 'How much did each customer spend?', means: [['How much', null, false]] },
    { say: 'The number of readings per device.', means: [['number of', 'count', false]] },
    // `total` only stresses a count: one count, never a sum beside it.
    { say: 'What is the total number of orders per customer?', means: [['total number of', 'count', false]] },
    { say: 'The total count of trips for each vendor.', on: 'taxi', means: [['total count of', 'count', false]] },
    // ... unless the count is a column's name: the sum of that column.
    {
      say: 'The total number of platforms of all stations.',
      on: stations,
      means: [['total', 'sum', false]],
    },
    {
      say: 'List the total number of horses on farms.',
      on: {
        streaming: false,
        tables: {
          farm: [
            { name: 'Farm_ID', data_type: 'INTEGER' },
            { name: 'Total_Horses', data_type: 'DOUBLE' },
          ],
        },
      },
      means: [
        ['total', 'sum', false],
        ['number of', 'count', false],
      ],
    },
    {
      say: 'What is the total number of students enrolled in each course?',
      on: {
        streaming: false,
        tables: {
          course: [
            { name: 'course_id', data_type: 'INTEGER' },
            { name: 'num_enrolled', data_type: 'INTEGER' },
          ],
        },
      },
      means: [
        ['total', 'sum', false],
        ['number of', 'count', false],
      ],
    },
    {
      say: 'The total count of check-ins for each business.',
      on: {
        streaming: false,
        tables: {
          checkin: [
            { name: 'business_id', data_type: 'VARCHAR' },
            { name: 'count', data_type: 'INTEGER' },
          ],
        },
      },
      means: [
        ['total', 'sum', false],
        ['count', 'count', false],
      ],
    },
    // `maximum` is also a superlative: max() or an ordering, as the readings decide.
    {
      say: 'Average temperature and maximum humidity.',
      means: [
        ['Average', 'avg', false],
        ['maximum', 'max', true],
      ],
    },
    { say: 'The highest temperature.', means: [['highest', 'max', true]] },
    { say: 'The most recent orders.', means: [['most recent', null, true]] },
    { say: 'The hottest readings.', means: [['hottest', null, true]] },
    // A word of a column's name is no cue: `total amount` names total_amount.
    {
      say: 'Show the total amount of each invoice.',
      on: {
        streaming: false,
        tables: {
          invoices: [
            { name: 'invoice_id', data_type: 'INTEGER' },
            { name: 'total_amount', data_type: 'DOUBLE' },
          ],
        },
      },
      means: [],
    },
  ];
  stateCorpus('aggregate-cues', EXAMPLES, (s) =>
    [...s.aggregateCues].map(([i, c]): Cue => [
      s.text.slice(s.tokens[i]?.start, s.tokens[c.end - 1]?.end),
      c.fn,
      c.superlative,
    ]),
  );
});
