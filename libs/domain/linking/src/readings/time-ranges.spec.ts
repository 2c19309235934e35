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
  ];
  readingCorpus(EXAMPLES, (p, plan) => plan?.where || p.doubts.join('; '));
});
