import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, ambiguous phrases]. */
type Said = [select: string | null, ambiguous: string[]];

const int = (name: string) => ({ name, data_type: 'INTEGER' });
const text = (name: string) => ({ name, data_type: 'VARCHAR' });
/** Players with their sponsor's name beside their own; parties and hosts through a bridge; customers' orders. */
const names: LinkSchema = {
  streaming: false,
  values: { customers: { customer_name: ['Jeramie', 'Ann'] } },
  tables: {
    player: [int('player_id'), text('player_name'), text('sponsor_name'), text('residence')],
    party: [int('party_id'), text('party_theme')],
    party_host: [int('party_id'), int('host_id')],
    host: [int('host_id'), text('name')],
    customers: [int('customer_id'), text('customer_name')],
    orders: [
      int('order_id'),
      int('customer_id'),
      text('order_status'),
      { name: 'date_order_placed', data_type: 'DATE' },
    ],
    invoices: [int('invoice_number'), int('order_id'), { name: 'invoice_date', data_type: 'DATE' }],
  },
};

/** Authors and their papers through a bridge, with the declared keys. */
const papers: LinkSchema = {
  streaming: false,
  values: { authors: { fname: ['Olin', 'Ann'], lname: ['Shivers', 'Lee'] } },
  tables: {
    authors: [int('authID'), text('fname'), text('lname')],
    authorship: [int('authID'), int('paperID')],
    papers: [int('paperID'), text('title')],
  },
  keys: {
    authors: { primaryKey: ['authID'] },
    papers: { primaryKey: ['paperID'] },
    authorship: {
      foreignKeys: [
        { columns: ['authID'], references: { table: 'authors', columns: ['authID'] } },
        { columns: ['paperID'], references: { table: 'papers', columns: ['paperID'] } },
      ],
    },
  },
};

const cities: LinkSchema = { streaming: false, tables: { city: [int('City_ID'), text('City'), int('GDP')] } };

describe('projection', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'Show the time and temperature of every reading from device dev-03.', means: ['ts, temperature', []] },
    { say: 'Which orders were cancelled? Give the order id and the product.', means: ['order_id, product', []] },
    { say: 'The 10 most recent orders, newest first: order id and order time.', means: ['order_id, ordered_at', []] },
    // Said of each row: the row's key is shown with it (row-keys).
    {
      say: 'Revenue (quantity times unit price) of each order.',
      means: ['order_id, (quantity * unit_price) AS revenue', []],
    },
    // Grouped: keys, then aggregates, then an aggregate the order sorts on.
    {
      say: 'Number of readings per device, sorted by temperature.',
      means: ['device_id, count(*), max(temperature)', []],
    },
    // The word after `of` tells tied columns apart.
    { say: 'Show the names of sponsors of players.', on: names, means: ['sponsor_name', []] },
    // A table said after `of` is whose columns the words before are, and not listed itself.
    {
      say: 'Show the themes of parties and the names of the party hosts.',
      on: names,
      means: ['party.party_theme, host.name', []],
    },
    {
      say: 'Give me the id and status of orders which belong to the customer named "Jeramie".',
      on: names,
      means: ['orders.order_id, orders.order_status', []],
    },
    // Another table's rows listed are shown by the column that names them, not by their key.
    { say: 'Find the papers which have "Olin Shivers" as an author.', on: papers, means: ['papers.title', []] },
    // A table listed that the source refers to by its key is shown by its name, joined.
    {
      say: 'Show the order status of all orders and the corresponding customer.',
      on: names,
      means: ['order_status, customers.customer_name', []],
    },
    // Naming the table is asking for its rows.
    { say: 'Show all devices.', means: ['', []] },
    // The source said by the name of its own text column shows that column.
    {
      say: 'What is the city with the smallest GDP? Return the city and its GDP.',
      on: cities,
      means: ['City, GDP', []],
    },
    // Not when it says whose column comes next, or some row of it.
    { say: 'Show all the distinct city GDPs.', on: cities, means: ['GDP', []] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [plan?.select ?? null, p.ambiguous.map((a) => a.phrase)]);
});
