import { readingCorpus, type Example } from '../testing/corpus';
import { staffSchema } from '../testing/fixtures';

/** [SELECT, WHERE, the reading or doubt about the set]. */
type Said = [select: string | null, where: string | null, note: string | null];

describe('quantified-comparisons', () => {
  const on = staffSchema();
  const EXAMPLES: Example<Said>[] = [
    // Every row of another table, on the measure the comparative evokes.
    { say: 'names of employees older than every director', on, means: ['name', 'age > ALL (SELECT age FROM directors)', '"older than every director" is read as age > every age of directors'] },
    // The rows holding a value: the set's value is the sub-query's condition, not the outer rows'.
    { say: 'employees whose salary is higher than all engineers', on, means: ['', "salary > ALL (SELECT salary FROM employees WHERE job = 'engineer')", '"higher than all engineers" is read as salary > every salary of employees with job engineer'] },
    { say: 'trips with a fare above every cash trip', on: 'taxi', means: ['', "fare_amt > ALL (SELECT fare_amt FROM trips WHERE payment_type = 'cash')", '"above every cash" is read as fare_amt > every fare_amt of trips with payment_type cash'] },
    // Doubts rather than guesses: `any`, a set narrowed by words after it, the table itself unqualified.
    { say: 'employees older than any director', on, means: ['', '', '"older than any director" compares with every member of a set, but "any" could mean every one or at least one'] },
    { say: 'trips with a fare higher than every trip paid by cash', on: 'taxi', means: ['', "payment_type = 'cash'", '"higher than every trip" compares with every member of a set, but which trip is not said'] },
    { say: 'employees older than every director named Smith', on, means: [null, null, '"older than every director" compares with every member of a set, but what is said after "director" may narrow the set, which is not read'] },
    // A stream runs no sub-query.
    { say: 'vehicles faster than every vehicle', on: 'stream', means: ['', '', '"faster than every vehicle" compares with every member of a set, but a stream cannot be compared with a sub-query (veloFlux runs none)'] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.select ?? null,
    plan?.where ?? null,
    [...p.readings, ...p.doubts].find((d) => d.includes('every')) ?? null,
  ]);
});
