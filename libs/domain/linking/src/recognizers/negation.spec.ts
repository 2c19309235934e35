import { linkCorpus, type Example } from '../testing/corpus';

describe('negation', () => {
  // The terms a negation reaches.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Orders that are not cancelled.', means: ['cancelled'] },
    { say: 'Orders that were neither cancelled nor returned.', means: ['cancelled', 'returned'] },
    { say: 'Readings of every device except device dev-01.', means: ['dev-01'] },
    // Past the column said before its value, with a preposition, an article and quotes between.
    { say: "Customers who are not in the country 'Germany'.", means: ['Germany'] },
    { say: 'Orders whose status is not "cancelled".', means: ['cancelled'] },
    { say: 'Vehicles that are not ok.', on: 'stream', means: ['ok'] },
    { say: 'Trips without tips.', on: 'taxi', means: ['tips'] },
    // A column after `not` is no negated value.
    { say: 'Orders not cancelled, with their quantity.', means: ['cancelled'] },
    { say: 'Readings above 30 degrees.', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => l.terms.filter((t) => t.negated).map((t) => t.text));
});
