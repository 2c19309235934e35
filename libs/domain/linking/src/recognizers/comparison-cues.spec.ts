import { linkCorpus, type Example } from '../testing/corpus';

/** [op, value, high, unit]. */
type Cue = [op: string, value: number, high: number | null, unit: string | null];

describe('comparison-cues', () => {
  const EXAMPLES: Example<Cue[]>[] = [
    { say: 'Readings above 30 degrees.', means: [['>', 30, null, 'degrees']] },
    { say: 'Orders with a quantity of at least 4.', means: [['>=', 4, null, null]] },
    { say: 'Readings with humidity below 40 percent.', means: [['<', 40, null, 'percent']] },
    { say: 'Orders with quantity between 2 and 5.', means: [['between', 2, 5, null]] },
    { say: 'Trips with 3 passengers or more.', on: 'taxi', means: [['>=', 3, null, null]] },
    // A spelled number before a trailing cue: `two or more`.
    { say: 'Customers with two or more orders.', means: [['>=', 2, null, null]] },
    { say: 'Trips with three passengers or fewer.', on: 'taxi', means: [['<=', 3, null, null]] },
    // A comparative after `or` says the direction: `30 or younger` is at most 30 of age.
    { say: 'Names of all pilots aged 30 or younger.', means: [['<=', 30, null, null]] },
    { say: 'Drivers aged 60 or older.', on: 'taxi', means: [['>=', 60, null, null]] },
    // `after` a number that is no date: later in the column's order.
    { say: 'How many games are held after season 2007?', means: [['>', 2007, null, null]] },
    { say: 'Readings not above 30.', means: [['<=', 30, null, null]] },
    { say: 'Orders with a quantity no more than 2.', means: [['<=', 2, null, null]] },
    { say: 'Trips with a fare over 50 dollars.', on: 'taxi', means: [['>', 50, null, 'dollars']] },
    // A spelled number counts only right after a cue; numbers in identifiers are no values.
    { say: 'Customers with at least one order.', means: [['>=', 1, null, null]] },
    { say: 'Readings of dev-03 and TH-300.', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.comparisons.map((c): Cue => [c.op, c.value, c.high, c.unit]));
});
