import { linkCorpus, words, type Example } from '../testing/corpus';

describe('unread', () => {
  // The answer-changing words that no link took.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'the ratio of delivered orders', means: ['ratio'] },
    // Read by the ratio link: its cue and separator.
    { say: 'the ratio of quantity to unit price for each order', means: [] },
    { say: 'number of orders per weekday', means: ['weekday'] },
    { say: 'orders with a quantity that is the same as the previous order', means: ['same', 'previous'] },
    // Read: an order word beside an order, a time unit beside a time grouping, a preposition
    // that compares with no number, a negation before what it negates.
    { say: 'names of customers sorted by country in descending order', means: [] },
    { say: 'average humidity over all readings', means: [] },
    // `either` stresses an `or` a link reads (two values, or two comparisons).
    { say: 'orders in either the books category or the sensors category', means: [] },
    { say: 'orders with either a quantity below 2 or a quantity above 10', means: [] },
    // `or` between two values of one column is an IN list; between other conditions, unread
    // (the plan would AND them).
    { say: 'orders in the books or sensors category', means: [] },
    { say: 'orders with a quantity above 5 or in the books category', means: ['or'] },
    { say: 'trips paid by cash or from Brooklyn', on: 'taxi', means: ['or'] },
    { say: 'orders placed in 2023 or in the books category', means: ['or'] },
    { say: 'either orders or customers', means: ['either'] },
    { say: 'average temperature per hour, with the start of each hour', means: [] },
    { say: 'orders that are not cancelled', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => words(l.unread));
});
