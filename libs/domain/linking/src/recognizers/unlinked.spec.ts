import { linkCorpus, words, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

const shop: LinkSchema = {
  streaming: false,
  tables: {
    orders: [
      { name: 'order_id', data_type: 'INTEGER' },
      { name: 'customer', data_type: 'VARCHAR' },
      { name: 'price', data_type: 'DOUBLE' },
      { name: 'order_date', data_type: 'DATE' },
    ],
  },
};

describe('unlinked', () => {
  // Content words that name nothing, adjacent ones joined; a column noun after one goes with it.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Average wind speed per device.', means: ['wind speed'] },
    { say: 'Total toll charges per vendor', on: 'taxi', means: ['toll charges'] },
    { say: 'Profit margin per product.', means: ['Profit margin'] },
    // Filler, cue words and defined words are not content.
    { say: 'Show me the data.', means: [] },
    { say: 'Revenue per product, where revenue is quantity times unit price.', means: [] },
    // A request verb's spelling said as a noun is content; said as a verb, it is not.
    { say: 'Show the dates, places and prices of orders.', on: shop, means: ['places'] },
    { say: 'The customer who places the most orders.', on: shop, means: [] },
  ];
  linkCorpus(EXAMPLES, (l) => words(l.unlinked));
});
