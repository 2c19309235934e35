import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

/** [words, cue, the noun grouped on, its qualifiers]. */
type Group = [words: string, cue: string, head: string, qualifiers: string[]];

const groupsOf = (l: Links): Group[] =>
  l.groups.map((g) => [g.text, g.cue, l.terms[g.term]?.text ?? '?', g.qualifiers.map((q) => l.terms[q]?.text ?? '?')]);

describe('groups', () => {
  const EXAMPLES: Example<Group[]>[] = [
    { say: 'Average temperature per device.', means: [['per device', 'per', 'device', []]] },
    { say: 'How many customers do we have in each country?', means: [['each country', 'in each', 'country', []]] },
    { say: 'Number of orders by status.', means: [['by status', 'by', 'status', []]] },
    { say: 'Orders grouped by product.', means: [['grouped by product', 'grouped by', 'product', []]] },
    { say: 'Which device has the most readings?', means: [['Which device', 'which', 'device', []]] },
    {
      say: 'Number of orders per customer segment.',
      means: [['per customer segment', 'per', 'segment', ['customer']]],
    },
    {
      say: 'Fare per vendor and borough.',
      on: 'taxi',
      means: [
        ['per vendor', 'per', 'vendor', []],
        ['borough', 'per', 'borough', []],
      ],
    },
    { say: 'Products with a total quantity above 50.', means: [['Products with', 'which', 'Products', []]] },
    // `whose` groups when its clause computes; otherwise it only says which rows.
    { say: 'Devices whose average temperature exceeds 30.', means: [['Devices whose', 'which', 'Devices', []]] },
    { say: 'The average quantity of orders whose status is shipped.', means: [] },
    // `across` groups when said of different things, or after a verb asking how a figure varies.
    {
      say: 'How does the average fare vary across boroughs?',
      on: 'taxi',
      means: [['vary across boroughs', 'across', 'boroughs', []]],
    },
    {
      say: 'Average quantity across different categories.',
      means: [['across different categories', 'across', 'categories', []]],
    },
    { say: 'The total quantity across all orders.', means: [] },
    {
      say: 'How does the average fare differ by borough?',
      on: 'taxi',
      means: [['differ by borough', 'by', 'borough', []]],
    },
    // A `by` after a sort verb or a superlative says what to sort on; "each … once" asks for distinct rows.
    { say: 'Customers sorted by name.', means: [] },
    // The sort verb's object between it and `by`: still an order, not a group.
    { say: 'Customers from Germany. Sort them by name.', means: [] },
    { say: 'Order the results by country.', means: [] },
    { say: 'The most expensive products by unit price.', means: [] },
    { say: 'The names of the customers, each name once.', means: [] },
  ];
  linkCorpus(EXAMPLES, groupsOf);
});
