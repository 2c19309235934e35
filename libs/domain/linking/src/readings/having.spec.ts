import { readingCorpus, type Example } from '../testing/corpus';

/** [HAVING, WHERE, the doubt]. */
type Said = [having: string | null, where: string | null, doubt: string | null];

describe('having', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'Devices whose average temperature exceeds 30.', means: ['avg(temperature) > 30', '', null] },
    {
      say: 'Sum of quantity per product, only products with more than 10 units.',
      means: ['sum(quantity) > 10', '', null],
    },
    {
      say: 'Number of orders per customer, only customers with more than 5 orders.',
      means: ['count(*) > 5', '', null],
    },
    // Said of the rows, not the groups: a row condition.
    {
      say: 'Average quantity per product of orders with a quantity of at least 4.',
      means: ['', 'quantity >= 4', null],
    },
    // Another table's rows counted per customer (counted-entities): the count compared.
    { say: 'Customers who placed at least one order.', means: ['count(*) >= 1', '', null] },
    { say: 'Customers with more than 5 orders.', means: ['count(*) > 5', '', null] },
    // Nothing grouped, nothing to count per: the condition cannot hold.
    { say: 'readings with more than 5 devices', means: ['', '', 'nothing grouped for "count > 5" to hold for'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.having ?? null,
    plan?.where ?? null,
    p.doubts.find((d) => d.startsWith('nothing grouped')) ?? null,
  ]);
});
