import { stateCorpus, type Example } from '../testing/corpus';

type Said = [words: string, direction: 'asc' | 'desc', onTime: boolean] | null;

describe('direction', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'Orders sorted by quantity in descending order.', means: ['descending', 'desc', false] },
    { say: 'Customers by name, ascending.', means: ['ascending', 'asc', false] },
    { say: 'The 10 most recent orders, newest first.', means: ['newest first', 'desc', true] },
    { say: 'The 3 most expensive products, most expensive first.', means: ['most expensive first', 'desc', false] },
    { say: 'Devices with the fewest readings, least first.', means: ['least first', 'asc', false] },
    {
      say: 'List the carriers in descending alphabetical order.',
      means: ['descending alphabetical order', 'desc', false],
    },
    { say: 'Hotels in increasing order of price.', means: ['increasing', 'asc', false] },
    { say: 'Cities by decreasing number of airports.', means: ['decreasing', 'desc', false] },
    {
      say: 'Procedures sorted by cost from the highest to the lowest.',
      means: ['from the highest to the lowest', 'desc', false],
    },
    { say: 'Lakes ordered from largest to smallest.', means: ['from largest to smallest', 'desc', false] },
    { say: 'Orders from oldest to newest.', means: ['from oldest to newest', 'asc', true] },
    // Said of something else than an order, a change is no direction.
    { say: 'Devices with increasing temperature.', means: null },
    // `first` alone is no direction.
    { say: 'The first order of each customer.', means: null },
  ];
  stateCorpus('direction', EXAMPLES, (s): Said => {
    const d = s.direction;
    return d ? [s.text.slice(s.tokens[d.start]?.start, s.tokens[d.end - 1]?.end), d.direction, d.time] : null;
  });
});
