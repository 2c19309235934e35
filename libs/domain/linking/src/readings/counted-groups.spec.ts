import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, GROUP BY, HAVING, WHERE, the doubt about the count]. */
type Said = [
  select: string | null,
  groupBy: string | null,
  having: string | null,
  where: string | null,
  doubt: string | null,
];

describe('counted-groups', () => {
  const EXAMPLES: Example<Said>[] = [
    // A column of the counted table, then its clause: the values that many rows share.
    { say: 'Which countries have more than 2 customers?', means: ['country, count(*)', 'country', 'count(*) > 2', '', null] },
    { say: 'segments with at least three customers', means: ['segment, count(*)', 'segment', 'count(*) >= 3', '', null] },
    { say: 'the sites where exactly two devices are installed', means: ['site, count(*)', 'site', 'count(*) = 2', '', null] },
    { say: 'boroughs with more than 100 trips', on: 'taxi', means: ['pu_borough, count(*)', 'pu_borough', 'count(*) > 100', '', null] },
    // How many times, said of the rows by a verb: the rows that many share the value.
    { say: 'Which statuses were used less than 5 times?', means: ['status, count(*)', 'status', 'count(*) < 5', '', null] },
    { say: 'Which countries appear at least 2 times?', means: ['country, count(*)', 'country', 'count(*) >= 2', '', null] },
    // A row condition said as well stays a row condition.
    { say: 'categories that have more than 5 orders with a quantity above 3', means: ['category, count(*)', 'category', 'count(*) > 5', 'quantity > 3', null] },
    // The head is a table: its rows counted per entity (counted-entities), shown by their name.
    { say: 'Customers with more than 5 orders.', means: ['customers.name, count(*)', 'customer_id, customers.name', 'count(*) > 5', '', null] },
    // Something is grouped already: the count is a HAVING of that grouping, not a new one.
    // (The customer shown by name: counted-entities.)
    { say: 'Number of orders per customer, only customers with more than 5 orders.', means: ['customers.name, count(*)', 'customer_id, customers.name', 'count(*) > 5', '', null] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.select ?? null,
    plan?.groupBy ?? null,
    plan?.having ?? null,
    plan?.where ?? null,
    p.doubts.find((d) => d.startsWith('nothing grouped')) ?? null,
  ]);
});
