import { proposalOf, readingCorpus, type Example } from '../testing/corpus';

describe('row-comparisons', () => {
  // The WHERE a comparison with a number makes.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Readings where humidity was below 40 percent.', means: 'humidity < 40' },
    { say: 'Show the order id of every order with a quantity of at least 4.', means: 'quantity >= 4' },
    { say: 'Readings with a temperature between 20 and 25.', means: 'temperature BETWEEN 20 AND 25' },
    {
      say: 'Show readings where temperature is above 30 or humidity is above 80.',
      means: '(temperature > 30 OR humidity > 80)',
    },
    { say: 'Readings hotter than 30.', means: 'temperature > 30' },
    { say: 'Trips with 3 passengers or more.', on: 'taxi', means: 'passenger_cnt >= 3' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.where ?? null);

  it('does not AND two comparisons an "or" joins when one of them is read apart (said of a noun)', () => {
    // The first is said of "readings" and read later, apart: the two cannot be joined here, and
    // ANDing them would answer another question. Not conclusive, with the reason.
    const p = proposalOf('Readings with temperature above 30 or humidity above 80.');
    expect(p.confidence).not.toBe('high');
    expect(p.doubts.join(' ')).toContain('"or" joins');
  });
});
