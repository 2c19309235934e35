import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

/** [words, direction, what it sorts on]. */
type Order = [words: string, direction: string | null, key: string];

const keyOf = (l: Links, o: Links['orders'][number]): string => {
  const k = o.key;
  if (o.hinted.length) return `concept: ${o.hinted.map((h) => h.label).join(', ')}`;
  if (!k) return 'nothing said';
  if ('time' in k) return 'time';
  if ('text' in k) return 'text';
  if ('term' in k) return l.terms[k.term]?.text ?? '?';
  if ('aggregate' in k) return `aggregate ${l.aggregates[k.aggregate]?.text ?? '?'}`;
  return `(${l.arithmetic[k.arithmetic]?.text ?? '?'})`;
};

describe('superlative-orders', () => {
  const EXAMPLES: Example<Order[]>[] = [
    { say: 'The highest temperature.', means: [['highest', 'desc', 'temperature']] },
    { say: 'The most recent orders.', means: [['most recent', 'desc', 'time']] },
    { say: 'The hottest readings.', means: [['hottest', 'desc', 'concept: temperature']] },
    { say: 'The device with the highest average temperature.', means: [['highest', 'desc', 'aggregate average']] },
    {
      say: 'The highest revenue, where revenue is quantity times unit price.',
      means: [['highest', 'desc', '(quantity times unit price)']],
    },
  ];
  linkCorpus(EXAMPLES, (l) =>
    l.orders.filter((o) => o.limit === null).map((o): Order => [o.text, o.direction, keyOf(l, o)]),
  );
});
