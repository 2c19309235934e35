import { readingCorpus, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

/** [FROM, WHERE]. */
type Said = [from: string | null, where: string | null];

const fk = (column: string, table: string) => ({ columns: [column], references: { table, columns: [column] } });

/** Residences and their features through a bridge; orders and the one customer each has. */
function dormSchema(): LinkSchema {
  return {
    streaming: false,
    values: { feature: { feature_name: ['TV Lounge', 'Gym'] }, customer: { city: ['Paris', 'Lyon'] } },
    tables: {
      residence: [
        { name: 'residence_id', data_type: 'INTEGER' },
        { name: 'residence_name', data_type: 'VARCHAR' },
      ],
      has_feature: [
        { name: 'residence_id', data_type: 'INTEGER' },
        { name: 'feature_id', data_type: 'INTEGER' },
      ],
      feature: [
        { name: 'feature_id', data_type: 'INTEGER' },
        { name: 'feature_name', data_type: 'VARCHAR' },
      ],
      customer: [
        { name: 'customer_id', data_type: 'INTEGER' },
        { name: 'city', data_type: 'VARCHAR' },
      ],
      purchase: [
        { name: 'purchase_id', data_type: 'INTEGER' },
        { name: 'customer_id', data_type: 'INTEGER' },
        { name: 'total', data_type: 'DOUBLE' },
      ],
    },
    keys: {
      residence: { primaryKey: ['residence_id'] },
      feature: { primaryKey: ['feature_id'] },
      has_feature: { foreignKeys: [fk('residence_id', 'residence'), fk('feature_id', 'feature')] },
      customer: { primaryKey: ['customer_id'] },
      purchase: { primaryKey: ['purchase_id'], foreignKeys: [fk('customer_id', 'customer')] },
    },
  };
}

describe('negated-related-values', () => {
  const on = dormSchema();
  const EXAMPLES: Example<Said>[] = [
    // A residence has many features: "not a TV lounge" is no TV lounge among them.
    {
      say: 'names of the residences that do not have a TV Lounge',
      on,
      means: ['residence', "NOT EXISTS (has_feature JOIN feature: residence_id = residence_id WHERE feature.feature_name = 'TV Lounge')"],
    },
    // A purchase has one customer: `!=` on it is right and stays a join.
    { say: 'totals of purchases whose customer city is not Paris', on, means: ['purchase JOIN customer', "customer.city != 'Paris'"] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (_p, plan): Said => [plan?.from ?? null, plan?.where ?? null]);
});
