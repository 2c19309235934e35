import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** SELECT. */
type Shown = string;

const fleet: LinkSchema = {
  streaming: false,
  tables: {
    aircraft: [{ name: 'aircraft_code', data_type: 'VARCHAR' }, { name: 'capacity', data_type: 'INTEGER' }, { name: 'range_miles', data_type: 'INTEGER' }],
    state: [{ name: 'state_name', data_type: 'VARCHAR' }, { name: 'country_name', data_type: 'VARCHAR' }, { name: 'population', data_type: 'INTEGER' }, { name: 'area', data_type: 'DOUBLE' }],
  },
  keys: { aircraft: { primaryKey: ['aircraft_code'] } },
}; // prettier-ignore

describe('row-keys', () => {
  const EXAMPLES: Example<Shown>[] = [
    // The column said per row: shown first.
    {
      say: 'the capacity divided by the range miles for each aircraft code',
      on: fleet,
      means: 'aircraft_code, (capacity / range_miles)',
    },
    // The table said per row: its declared key, or the name column named after it.
    { say: 'capacity for each aircraft', on: fleet, means: 'aircraft_code, capacity' },
    { say: 'population divided by area for each state', on: fleet, means: 'state_name, (population / area)' },
    // Computed per group: the group keys are shown already, nothing is added.
    { say: 'the average capacity for each aircraft code', on: fleet, means: 'avg(capacity)' },
    // (each customer shown by name: counted-entities)
    { say: 'the number of orders per customer', means: 'customers.name, count(*)' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.select ?? '');
});
