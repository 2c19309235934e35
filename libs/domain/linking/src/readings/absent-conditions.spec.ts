import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';
import type { LinkSchema } from '../types';

/** [FROM, WHERE, the doubt about the negation's scope]. */
type Said = [from: string | null, where: string | null, doubt: string | null];

/** Programs and their broadcasts; stations and the trains that pass them (Spider's shapes, other words). */
function broadcastSchema(): LinkSchema {
  const fk = (column: string, table: string) => ({ columns: [column], references: { table, columns: [column] } });
  return {
    streaming: false,
    values: { broadcast: { time_of_day: ['Morning', 'Night'] } },
    tables: {
      program: [
        { name: 'program_id', data_type: 'INTEGER' },
        { name: 'name', data_type: 'VARCHAR' },
        { name: 'launch_year', data_type: 'INTEGER' },
      ],
      broadcast: [
        { name: 'program_id', data_type: 'INTEGER' },
        { name: 'time_of_day', data_type: 'VARCHAR' },
        { name: 'minutes', data_type: 'INTEGER' },
      ],
    },
    keys: { program: { primaryKey: ['program_id'] }, broadcast: { foreignKeys: [fk('program_id', 'program')] } },
  };
}

/** Shops and the devices they hold, through their stock rows. */
function stockSchema(): LinkSchema {
  const fk = (column: string, table: string) => ({ columns: [column], references: { table, columns: [column] } });
  return {
    streaming: false,
    values: {},
    tables: {
      shop: [
        { name: 'shop_id', data_type: 'INTEGER' },
        { name: 'shop_name', data_type: 'VARCHAR' },
      ],
      stock: [
        { name: 'shop_id', data_type: 'INTEGER' },
        { name: 'device_id', data_type: 'INTEGER' },
        { name: 'quantity', data_type: 'INTEGER' },
      ],
      device: [
        { name: 'device_id', data_type: 'INTEGER' },
        { name: 'carrier', data_type: 'VARCHAR' },
      ],
    },
    keys: {
      shop: { primaryKey: ['shop_id'] },
      device: { primaryKey: ['device_id'] },
      stock: { foreignKeys: [fk('shop_id', 'shop'), fk('device_id', 'device')] },
    },
  };
}

describe('absent-conditions', () => {
  const on = broadcastSchema();
  const EXAMPLES: Example<Said>[] = [
    // What is said of the broadcasts is tested inside the absence, and the join it caused is dropped.
    {
      say: 'names of programs that are never broadcast in the morning',
      on,
      means: ['program', "NOT EXISTS (broadcast: program_id = program_id WHERE time_of_day = 'Morning')", null],
    },
    // Read from the broadcasts (the minutes are theirs), the negation has no place: a doubt, never `minutes > 30`.
    {
      say: 'programs that have no broadcasts longer than 30 minutes',
      on,
      means: ['broadcast JOIN program', 'minutes > 30', '"broadcasts" is said absent, but the answer reads broadcast rows'],
    },
    // The rows said absent are not the rows answered: never an answer without its `no`.
    {
      say: 'programs that have no broadcasts',
      on,
      means: ['program', 'NOT EXISTS (broadcast: program_id = program_id)', null],
    },
    // A condition on the answered rows said before the negation stays outside.
    {
      say: 'programs launched after 2000 that have no broadcasts',
      on,
      means: ['program', 'NOT EXISTS (broadcast: program_id = program_id) AND launch_year >= 2001', null],
    },
    // `devices in stock`: the table after the preposition is the way to the absent rows, not the source.
    {
      say: 'names of shops that do not have any devices in stock',
      on: stockSchema(),
      means: ['shop', 'NOT EXISTS (stock: shop_id = shop_id)', null],
    },
    // Read from the broadcasts, `never broadcast` has no place: a doubt, never both times at once.
    {
      say: 'names of programs broadcast in the morning that are never broadcast at night',
      on,
      means: ['broadcast JOIN program', "time_of_day IN ('Morning', 'Night')", '"broadcast" is said absent, but the answer reads broadcast rows'],
    },
    // Words said after the absent rows weigh half for the source: the customers are answered, not the orders.
    {
      say: 'names of customers who have no orders in the books category',
      on: 'demo',
      means: ['customers', "NOT EXISTS (orders: customer_id = customer_id WHERE category = 'books')", null],
    },
    // Nothing said of the absent rows: the absence alone (through a bridge table, as before).
    {
      say: 'authors who never wrote papers',
      on: scholarSchema(),
      means: ['author', 'NOT EXISTS (writes: authorid = authorid)', null],
    },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.from ?? null,
    plan?.where ?? null,
    p.doubts.find((d) => d.includes('negation') || d.includes('absent')) ?? null,
  ]);
});
