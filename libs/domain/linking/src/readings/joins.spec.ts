import { linkRequest } from '../link';
import { proposePlan } from '../propose';
import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

const int = (name: string) => ({ name, data_type: 'INTEGER' });
const text = (name: string) => ({ name, data_type: 'VARCHAR' });
/** Keys named as schemas name them: `id` owned by each table, `car_id` pointing at it. */
const dealership: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    cars: [int('id'), text('make'), text('model')],
    sales: [int('id'), int('car_id'), { name: 'sale_price', data_type: 'DOUBLE' }],
  },
};
/** A many-to-many through a bridge table, with its keys declared. */
const library: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    author: [int('aid'), text('name')],
    writes: [int('aid'), int('pid')],
    paper: [int('pid'), text('title'), int('year')],
  },
  keys: {
    author: { primaryKey: ['aid'] },
    paper: { primaryKey: ['pid'] },
    writes: {
      foreignKeys: [
        { columns: ['aid'], references: { table: 'author', columns: ['aid'] } },
        { columns: ['pid'], references: { table: 'paper', columns: ['pid'] } },
      ],
    },
  },
};

/** Parties and their hosts through a bridge; a venue with a name of its own beside the host's. */
const parties: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    party: [int('party_id'), text('party_theme'), int('number_of_hosts'), int('venue_id')],
    party_host: [int('party_id'), int('host_id')],
    host: [int('host_id'), text('name'), int('age')],
    venue: [int('venue_id'), text('name')],
  },
};

describe('joins', () => {
  // The FROM clause: a word naming another table's column or value joins that table on a shared key.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Revenue (quantity times unit price) per customer country.', means: 'orders JOIN customers' },
    {
      say: 'Average temperature per site, where each device belongs to a site.',
      means: 'sensor_readings JOIN devices',
    },
    { say: 'The names of the customers who ordered a Gateway Hub, each name once.', means: 'customers JOIN orders' },
    { say: 'Average temperature per device.', means: 'sensor_readings' },
    // A key points at the table that owns it: sales.car_id = cars.id, never sales.id = cars.id.
    { say: 'Total sale price per car make.', on: dealership, means: 'sales JOIN cars' },
    // Through a bridge table along declared keys.
    { say: 'Number of papers per author name.', on: library, means: 'paper JOIN writes JOIN author' },
    // Through a bridge on inferred keys, the table named beside its column (`host names`).
    {
      say: 'Show the host names for parties with number of hosts greater than 20.',
      on: parties,
      means: 'party JOIN party_host JOIN host',
    },
    { say: 'The age of the hosts of each party theme.', on: parties, means: 'host JOIN party_host JOIN party' },
    // `names` fits the host's and the venue's alike: neither is guessed.
    { say: 'Show the names for parties with number of hosts greater than 20.', on: parties, means: 'party' },
    // Streams are not joined: the stream's own columns only.
    { say: 'Average speed per vehicle every 10 seconds.', on: 'stream', means: 'vehicle' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.from ?? null);

  it('joins on the key the other table owns', () => {
    const plan = JSON.stringify(
      proposePlan(linkRequest('Total sale price per car make.', dealership), dealership).plan,
    );
    expect(plan).toContain('"left":{"table":"sales","column":"car_id"},"right":{"table":"cars","column":"id"}');
  });
});
