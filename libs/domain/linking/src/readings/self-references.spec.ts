import { readingCorpus, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

const int = (name: string) => ({ name, data_type: 'INTEGER' });
const text = (name: string) => ({ name, data_type: 'VARCHAR' });

/** Employees and the number of the employee each reports to, with no key declared to say so. */
const staff: LinkSchema = {
  streaming: false,
  values: { employees: { FIRST_NAME: ['Payam', 'Steven', 'Neena'], CITY: ['Toronto', 'Seattle'] } },
  tables: {
    employees: [int('EMPLOYEE_ID'), text('FIRST_NAME'), text('CITY'), int('SALARY'), int('MANAGER_ID')],
  },
};

/** The same rows without a person's number: a name after a verb is the row's own. */
const plain: LinkSchema = {
  streaming: false,
  values: { employees: { FIRST_NAME: ['Payam', 'Steven'] } },
  tables: { employees: [int('EMPLOYEE_ID'), text('FIRST_NAME'), int('SALARY')] },
};

describe('self references', () => {
  const EXAMPLES: Example<string | null>[] = [
    // A person said as the object of a verb among rows holding a person's number: a self-reference.
    {
      say: 'The salary of all employees who report to Payam.',
      on: staff,
      means:
        '"Payam" is said after "report to": the employees rows related to Payam through employees.MANAGER_ID may be meant, not Payam\'s own row',
    },
    // Said as the row's own name, or a value that is no person's name: the row itself.
    { say: 'The salary of the employee named Payam.', on: staff, means: null },
    { say: 'The salary of employees whose first name is Payam.', on: staff, means: null },
    { say: 'The salary of employees who moved to Toronto.', on: staff, means: null },
    // No person's number in the rows: nothing else the name could reach.
    { say: 'The salary of all employees who report to Payam.', on: plain, means: null },
  ];
  readingCorpus(EXAMPLES, (p) => p.doubts.find((d) => d.includes('is said after')) ?? null);
});
