import { linkCorpus, type Example } from '../testing/corpus';
import type { LinkSchema, TermLink } from '../types';

/** [words, what the best candidate is]. */
type Term = [words: string, names: string];

const named = (t: TermLink): string => {
  const best = [
    ...t.tables.map((x) => ({ s: x.score, n: `table ${x.table}` })),
    ...t.columns.map((x) => ({ s: x.score, n: `column ${x.table}.${x.label}` })),
    ...t.values.map((x) => ({ s: x.score, n: `value ${x.table}.${x.column}='${x.value}'` })),
  ].sort((a, b) => b.s - a.s)[0];
  return best?.n ?? '';
};

const restaurants: LinkSchema = {
  streaming: false,
  tables: { restaurant: [{ name: 'id', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'rating', data_type: 'REAL' }] },
}; // prettier-ignore
const museums: LinkSchema = {
  streaming: false,
  tables: { museums: [{ name: 'museum_id', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'visits', data_type: 'INTEGER' }] },
}; // prettier-ignore

const stations: LinkSchema = {
  streaming: false,
  tables: { gas_station: [{ name: 'Station_ID', data_type: 'INTEGER' }, { name: 'Location', data_type: 'VARCHAR' }, { name: 'Open_Year', data_type: 'INTEGER' }] },
}; // prettier-ignore

describe('terms', () => {
  const EXAMPLES: Example<Term[]>[] = [
    {
      say: 'unit price of orders',
      means: [
        ['unit price', 'column orders.unit_price'],
        ['orders', 'table orders'],
      ],
    },
    {
      say: 'readings from dev-03',
      means: [
        ['readings', 'table sensor_readings'],
        ['dev-03', "value sensor_readings.device_id='dev-03'"],
      ],
    },
    {
      say: 'customers from Germany',
      means: [
        ['customers', 'table customers'],
        ['Germany', "value customers.country='Germany'"],
      ],
    },
    {
      say: 'fare amount per vendor',
      on: 'taxi',
      means: [
        ['fare amount', 'column trips.fare_amt'],
        ['vendor', 'column trips.vendor_name'],
      ],
    },
    // A request verb ranked by a superlative is an attribute, met by its dictionary form.
    {
      say: 'the highest-rated restaurant',
      on: restaurants,
      means: [
        ['rated', 'column restaurant.rating'],
        ['restaurant', 'table restaurant'],
      ],
    },
    {
      say: 'the most visited museums',
      on: museums,
      means: [
        ['visited', 'column museums.visits'],
        ['museums', 'table museums'],
      ],
    },
    // Compared, too: `opened between 2000 and 2005` is when it opened.
    {
      say: 'stations that opened between 2000 and 2005',
      on: stations,
      means: [
        ['stations', 'column gas_station.Station_ID'],
        ['opened', 'column gas_station.Open_Year'],
      ],
    },
    // Elsewhere it is the verb of the request, not a column spelled like it.
    { say: 'restaurants rated by guests', on: restaurants, means: [['restaurants', 'table restaurant']] },
    // The words of cues and numbers are not read as data.
    { say: 'average temperature above 30', means: [['temperature', 'column sensor_readings.temperature']] },
  ];
  linkCorpus(EXAMPLES, (l) => l.terms.map((t): Term => [t.text, named(t)]));
});
