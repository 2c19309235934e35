import { stateCorpus, type Example } from '../testing/corpus';

type Said = [words: string, direction: 'asc' | 'desc', onTime: boolean] | null;

describe('direction', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'Orders sorted by quantity in descending order.', means: ['descending', 'desc', false] },
    { say: 'Customers by name, ascending.', means: ['ascending', 'asc', false] },
    { say: 'The 10 most recent orders, newest first.', means: ['newest first', 'desc', true] },
    { say: 'The 3 most expensive products, most expensive first.', means: ['most expensive first', 'desc', false] },
    { say: 'Devices with the fewest readings, least first.', means: ['least first', 'asc', false] },
    // `first` alone is no direction.
    { say: 'The first order of each customer.', means: null },
  ];
  stateCorpus('direction', EXAMPLES, (s): Said => {
    const d = s.direction;
    return d ? [s.text.slice(s.tokens[d.start]?.start, s.tokens[d.end - 1]?.end), d.direction, d.time] : null;
  });
});
