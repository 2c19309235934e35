import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** Years kept as numbers, as many schemas keep them. */
const wines: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    wine: [
      { name: 'Name', data_type: 'VARCHAR' },
      { name: 'Year', data_type: 'INTEGER' },
      { name: 'Price', data_type: 'INTEGER' },
    ],
  },
};

/** A year kept as a number in another table than the one listed. */
const campus: LinkSchema = {
  streaming: false,
  tables: {
    building: [{ name: 'building_id', data_type: 'INTEGER' }, { name: 'Name', data_type: 'VARCHAR' }],
    Institution: [{ name: 'Institution_id', data_type: 'INTEGER' }, { name: 'building_id', data_type: 'INTEGER' }, { name: 'Founded', data_type: 'INTEGER' }],
  },
}; // prettier-ignore

describe('time-ranges', () => {
  // The WHERE a date range makes, or the doubt when it cannot.
  const EXAMPLES: Example<string>[] = [
    {
      say: 'Number of orders placed in February 2024.',
      means: "ordered_at >= '2024-02-01 00:00:00' AND ordered_at < '2024-03-01 00:00:00'",
    },
    { say: 'Orders placed since March 2024.', means: "ordered_at >= '2024-03-01 00:00:00'" },
    { say: 'Average speed in February 2024.', on: 'stream', means: 'a stream has no date range to filter on' },
    // Whole years on a year kept as a number compare as numbers; a month there cannot.
    { say: 'Return the prices of wines produced before 2010.', on: wines, means: 'Year < 2010' },
    { say: 'Names of the wines of 2008.', on: wines, means: 'Year >= 2008 AND Year < 2009' },
    { say: 'Names of the wines of March 2008.', on: wines, means: 'no time column for "of March 2008"' },
    // The years of a numeric column named right before them (no `year` in its name).
    {
      say: 'Names of the buildings with institutions founded after 1990.',
      on: campus,
      means: 'Founded >= 1991',
    },
  ];
  readingCorpus(EXAMPLES, (p, plan) => plan?.where || p.doubts.join('; '));

  // Said relative to today: computed the day the query runs, and the turn says how it was read.
  const RELATIVE: Example<[where: string, reading: string]>[] = [
    {
      say: 'Number of orders placed in the last 30 days.',
      means: [
        'ordered_at >= today - 30 day',
        '"placed in the last 30 days" is read as ordered_at from 30 days before today, today being the day the query runs',
      ],
    },
    {
      say: 'Trips per borough last month.',
      on: 'taxi',
      means: [
        'pickup_ts >= start of month - 1 month AND pickup_ts < start of month',
        '"last month" is read as pickup_ts from the start of last month until the start of this month, today being the day the query runs',
      ],
    },
    {
      say: 'How many orders in the past 7 days, inclusive of today?',
      means: [
        'ordered_at >= today - 6 day',
        '"in the past 7 days, inclusive of today" is read as ordered_at from 6 days before today, today being the day the query runs',
      ],
    },
  ];
  readingCorpus(RELATIVE, (p, plan): [string, string] => [
    plan?.where ?? '',
    p.readings.find((r) => r.includes('query runs')) ?? '',
  ]);

  // Times of day with no day said: the hours of any day; with minutes, a doubt (today was not said).
  const HOURS: Example<string>[] = [
    {
      say: 'How many orders were placed between 9am and 5pm?',
      means: 'hour(ordered_at) >= 9 AND hour(ordered_at) < 17',
    },
    { say: 'Readings between 12:30 and 18:00.', means: '"between 12:30 and 18:00" says no day (read as today)' },
    {
      say: 'Readings between 12:00 and 18:00 on 1 March 2024.',
      means: "ts >= '2024-03-01 12:00:00' AND ts < '2024-03-01 18:00:00'",
    },
  ];
  readingCorpus(HOURS, (p, plan) => p.doubts.find((d) => d.includes('says no day')) ?? plan?.where ?? '');
});
