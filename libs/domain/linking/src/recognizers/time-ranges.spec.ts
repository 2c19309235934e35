import { linkCorpus, type Example } from '../testing/corpus';

/** [words, from, to): "now" is 2024-03-15 10:30 UTC (CORPUS_NOW). */
type Range = [text: string, from: string | null, to: string | null];

describe('time-ranges', () => {
  const cases: Record<string, Example<Range[]>[]> = {
    relative: [
      { say: 'Orders placed in the last 7 days.', means: [['in the last 7 days', '2024-03-08 10:30:00', null]] },
      { say: 'Orders placed last month.', means: [['last month', '2024-02-01 00:00:00', '2024-03-01 00:00:00']] },
      { say: 'Readings from yesterday.', means: [['yesterday', '2024-03-14 00:00:00', '2024-03-15 00:00:00']] },
      { say: 'Orders this year.', means: [['this year', '2024-01-01 00:00:00', null]] },
    ],
    quarters: [
      { say: 'Orders placed in Q1 2024.', means: [['in Q1 2024', '2024-01-01 00:00:00', '2024-04-01 00:00:00']] },
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
      { say: 'Orders placed in 2023.', means: [['in 2023', '2023-01-01 00:00:00', '2024-01-01 00:00:00']] },
      { say: 'Customers since 2019.', means: [['since 2019', '2019-01-01 00:00:00', null]] },
    ],
  };
  for (const [parser, examples] of Object.entries(cases)) {
    describe(parser, () => linkCorpus(examples, (l) => l.timeRanges.map((r): Range => [r.text, r.from, r.to])));
  }
});
