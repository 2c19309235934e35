import { linkCorpus, type Example } from '../testing/corpus';

/** The limit orders: [words, limit, rows skipped]. */
type Ranked = [words: string, limit: number | null, offset: number];

describe('ordinal-limits', () => {
  const EXAMPLES: Example<Ranked[]>[] = [
    { say: 'the second highest unit price', means: [['second', 1, 1]] },
    { say: 'Which customer placed the 3rd most recent order?', means: [['3rd', 1, 2]] },
    { say: 'the fifth cheapest trip', on: 'taxi', means: [['fifth', 1, 4]] },
    // Not before a superlative: no rank (a time unit, a plain word).
    { say: 'orders on the second day of March', means: [] },
    { say: 'average temperature every 5 seconds', means: [] },
  ];
  linkCorpus(EXAMPLES, (l) =>
    l.orders.filter((o) => o.limit !== null).map((o): Ranked => [o.text, o.limit, o.offset ?? 0]),
  );
});
