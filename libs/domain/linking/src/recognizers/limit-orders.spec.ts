import { ordersAddedBy, type Example } from '../testing/corpus';

/** [words, limit, with a direction or key of its own]. */
type Limited = [words: string, limit: number | null, saysMore: boolean];

describe('limit-orders', () => {
  // A limit is an order with nothing to sort on of its own: the superlative or direction beside it says that.
  const EXAMPLES: Example<Limited[]>[] = [
    { say: 'The top 3 devices.', means: [['top 3', 3, false]] },
    { say: 'The 10 most recent orders.', means: [['10', 10, false]] },
    { say: 'Show 5 orders.', means: [] },
  ];
  it.each(EXAMPLES.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    const added = ordersAddedBy(e.say, 'limit-orders', e.on);
    expect(added.map((o): Limited => [o.text, o.limit, o.direction !== null || o.key !== null])).toEqual(e.means);
  });
});
