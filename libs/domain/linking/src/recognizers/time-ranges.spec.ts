import { linkCorpus, type Example } from '../testing/corpus';

/** [words, from, to): "now" is 2024-03-15 10:30 UTC (CORPUS_NOW). */
type Range = [text: string, from: string | null, to: string | null];

describe('time-ranges', () => {
  const cases: Record<string, Example<Range[]>[]> = {
    relative: [
      // From the start of the day seven days back (as `CURRENT_DATE - INTERVAL '7 day'`).
      { say: 'Orders placed in the last 7 days.', means: [['placed in the last 7 days', '2024-03-08 00:00:00', null]] },
      { say: 'Readings in the past 2 hours.', means: [['in the past 2 hours', '2024-03-15 08:30:00', null]] },
      // Weeks start on Monday (2024-03-15 is a Friday).
      { say: 'Orders this week.', means: [['this week', '2024-03-11 00:00:00', null]] },
      { say: 'Orders in the current quarter.', means: [['the current quarter', '2024-01-01 00:00:00', null]] },
      {
        say: 'Orders placed last month.',
        means: [['placed last month', '2024-02-01 00:00:00', '2024-03-01 00:00:00']],
      },
      { say: 'Readings from yesterday.', means: [['yesterday', '2024-03-14 00:00:00', '2024-03-15 00:00:00']] },
      { say: 'Orders this year.', means: [['this year', '2024-01-01 00:00:00', null]] },
    ],
    bounds: [
      {
        say: 'Customers who signed up in the last 6 months excluding the current month.',
        means: [
          ['signed up in the last 6 months excluding the current month', '2023-09-01 00:00:00', '2024-03-01 00:00:00'],
        ],
      },
      {
        say: 'Notifications sent in each of the last 3 weeks, not including the current week.',
        means: [['the last 3 weeks, not including the current week', '2024-02-19 00:00:00', '2024-03-11 00:00:00']],
      },
      {
        say: 'Cars sold in the past 7 days, inclusive of today.',
        means: [['sold in the past 7 days, inclusive of today', '2024-03-09 00:00:00', null]],
      },
      {
        say: 'Merchants in the past 150 days (inclusive of 150 days ago).',
        means: [['in the past 150 days (inclusive of 150 days ago)', '2023-10-17 00:00:00', null]],
      },
      {
        say: 'Sessions between 2023-06-01 inclusive and 2023-06-08 exclusive.',
        means: [
          ['between 2023-06-01 inclusive and 2023-06-08 exclusive', '2023-06-01 00:00:00', '2023-06-08 00:00:00'],
        ],
      },
      {
        say: 'Trades between Jan 1, 2023 and Mar 31, 2023 (inclusive of start and end dates).',
        means: [
          [
            'between Jan 1, 2023 and Mar 31, 2023 (inclusive of start and end dates)',
            '2023-01-01 00:00:00',
            '2023-04-01 00:00:00',
          ],
        ],
      },
    ],
    'periods of': [
      {
        say: 'Orders in the first quarter of 2024.',
        means: [['in the first quarter of 2024', '2024-01-01 00:00:00', '2024-04-01 00:00:00']],
      },
      {
        say: 'Orders in the second half of 2023.',
        means: [['in the second half of 2023', '2023-07-01 00:00:00', '2024-01-01 00:00:00']],
      },
      { say: 'Orders in Q3 of 2023.', means: [['in Q3 of 2023', '2023-07-01 00:00:00', '2023-10-01 00:00:00']] },
      {
        say: 'Orders in the last 2 weeks of February 2024.',
        means: [['in the last 2 weeks of February 2024', '2024-02-16 00:00:00', '2024-03-01 00:00:00']],
      },
      {
        say: 'Orders in the first 10 days of March 2024.',
        means: [['in the first 10 days of March 2024', '2024-03-01 00:00:00', '2024-03-11 00:00:00']],
      },
    ],
    ago: [
      // The whole period that many back: 2024-03-15 is a Friday.
      {
        say: 'Orders placed 2 years ago.',
        means: [['placed 2 years ago', '2022-01-01 00:00:00', '2023-01-01 00:00:00']],
      },
      { say: 'Readings from 3 days ago.', means: [['3 days ago', '2024-03-12 00:00:00', '2024-03-13 00:00:00']] },
    ],
    quarters: [
      {
        say: 'Orders placed in Q1 2024.',
        means: [['placed in Q1 2024', '2024-01-01 00:00:00', '2024-04-01 00:00:00']],
      },
    ],
    calendar: [
      { say: 'Orders in February 2024.', means: [['in February 2024', '2024-02-01 00:00:00', '2024-03-01 00:00:00']] },
      {
        say: 'Orders from March to May 2024.',
        means: [['from March to May 2024', '2024-03-01 00:00:00', '2024-06-01 00:00:00']],
      },
      // A month name must look like one: "may" is a verb here.
      { say: 'Which orders may be late?', means: [] },
      // Numbers inside identifiers are not days or hours.
      { say: 'Readings of dev-03.', means: [] },
    ],
    'part ranges': [
      {
        say: 'Temperature between 12:00 and 18:00 on 1 March 2024.',
        means: [['between 12:00 and 18:00 on 1 March 2024', '2024-03-01 12:00:00', '2024-03-01 18:00:00']],
      },
    ],
    dates: [
      { say: 'Orders since March 2024.', means: [['since March 2024', '2024-03-01 00:00:00', null]] },
      { say: 'Orders before 1 March 2024.', means: [['before 1 March 2024', null, '2024-03-01 00:00:00']] },
      {
        say: 'Orders in the first week of February 2024.',
        means: [['in the first week of February 2024', '2024-02-01 00:00:00', '2024-02-08 00:00:00']],
      },
      {
        say: 'Orders in the last week of February 2024.',
        means: [['in the last week of February 2024', '2024-02-23 00:00:00', '2024-03-01 00:00:00']],
      },
    ],
    years: [
      { say: 'Orders placed in 2023.', means: [['placed in 2023', '2023-01-01 00:00:00', '2024-01-01 00:00:00']] },
      { say: 'Customers since 2019.', means: [['since 2019', '2019-01-01 00:00:00', null]] },
      // The year named as one, its preposition before it.
      { say: 'Orders before the year of 2010.', means: [['before the year of 2010', null, '2010-01-01 00:00:00']] },
      { say: 'Orders after the year 2005.', means: [['after the year 2005', '2006-01-01 00:00:00', null]] },
      { say: 'Orders in the year 2020.', means: [['in the year 2020', '2020-01-01 00:00:00', '2021-01-01 00:00:00']] },
      { say: 'Orders of year 2020.', means: [['of year 2020', '2020-01-01 00:00:00', '2021-01-01 00:00:00']] },
    ],
  };
  for (const [parser, examples] of Object.entries(cases)) {
    describe(parser, () => linkCorpus(examples, (l) => l.timeRanges.map((r): Range => [r.text, r.from, r.to])));
  }

  // What the SQL targets compute the day the query runs: [amount, unit, start of] for each bound.
  type Moment = [amount: number, unit: string, startOf: string | null] | null;
  const relative = (m: { amount: number; unit: string; start_of?: string | null } | null): Moment =>
    m ? [m.amount, m.unit, m.start_of ?? null] : null;
  describe('relative to the day the query runs', () => {
    const EXAMPLES: Example<[Moment, Moment][]>[] = [
      { say: 'Orders placed in the last 30 days.', means: [[[-30, 'day', null], null]] },
      {
        say: 'Orders placed last month.',
        means: [
          [
            [-1, 'month', 'month'],
            [0, 'month', 'month'],
          ],
        ],
      },
      {
        say: 'Readings from yesterday.',
        means: [
          [
            [-1, 'day', null],
            [0, 'day', null],
          ],
        ],
      },
      { say: 'Orders this year.', means: [[[0, 'year', 'year'], null]] },
      { say: 'Sales in the last 30 days inclusive of today.', means: [[[-29, 'day', null], null]] },
      {
        say: 'Sign-ups in the last 6 months, excluding the current month.',
        means: [
          [
            [-6, 'month', 'month'],
            [0, 'month', 'month'],
          ],
        ],
      },
      // A date said as a date is not relative.
      { say: 'Orders in February 2024.', means: [[null, null]] },
    ];
    linkCorpus(EXAMPLES, (l) =>
      l.timeRanges.map((r) => [relative(r.relative?.from ?? null), relative(r.relative?.to ?? null)]),
    );
  });
});
