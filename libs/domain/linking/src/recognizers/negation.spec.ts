import { linkCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';
import type { LinkSchema } from '../types';

/** Customers and the policies they hold (a table named by two words, a column by one of them). */
function policySchema(): LinkSchema {
  return {
    streaming: false,
    tables: {
      Customers: [
        { name: 'Customer_ID', data_type: 'INTEGER' },
        { name: 'Customer_Details', data_type: 'VARCHAR' },
      ],
      Customer_Policies: [
        { name: 'Policy_ID', data_type: 'INTEGER' },
        { name: 'Customer_ID', data_type: 'INTEGER' },
        { name: 'Policy_Type_Code', data_type: 'VARCHAR' },
      ],
    },
    keys: {
      Customers: { primaryKey: ['Customer_ID'] },
      Customer_Policies: {
        primaryKey: ['Policy_ID'],
        foreignKeys: [{ columns: ['Customer_ID'], references: { table: 'Customers', columns: ['Customer_ID'] } }],
      },
    },
  };
}

describe('negation', () => {
  // The terms a negation reaches.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Orders that are not cancelled.', means: ['cancelled'] },
    { say: 'Orders that were neither cancelled nor returned.', means: ['cancelled', 'returned'] },
    { say: 'Readings of every device except device dev-01.', means: ['dev-01'] },
    // Past the column said before its value, with a preposition, an article and quotes between.
    { say: "Customers who are not in the country 'Germany'.", means: ['Germany'] },
    { say: 'Orders whose status is not "cancelled".', means: ['cancelled'] },
    { say: 'Vehicles that are not ok.', on: 'stream', means: ['ok'] },
    { say: 'Trips without tips.', on: 'taxi', means: ['tips'] },
    // A column after `not` is no negated value.
    { say: 'Orders not cancelled, with their quantity.', means: ['cancelled'] },
    { say: 'Readings above 30 degrees.', means: [] },
    // Rows said absent: after `any` a noun counts rows (the preposition case: absent-conditions.spec).
    { say: 'venues that do not have any papers', on: scholarSchema(), means: ['papers'] },
    // `policies` meets a column of Customer_Policies better than the table: after `any` it still counts rows.
    { say: 'customers who do not have any policies', on: policySchema(), means: ['policies'] },
  ];
  linkCorpus(EXAMPLES, (l) => l.terms.filter((t) => t.negated).map((t) => t.text));
});
