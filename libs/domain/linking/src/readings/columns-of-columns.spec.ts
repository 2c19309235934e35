import { readingCorpus, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

const int = (name: string) => ({ name, data_type: 'INTEGER' });
const text = (name: string) => ({ name, data_type: 'VARCHAR' });

/** A student's advisor is a faculty member's number, with no key declared to say so. */
const college: LinkSchema = {
  streaming: false,
  values: { Student: { Fname: ['Linda', 'Tracy'], LName: ['Smith', 'Kim'] } },
  tables: {
    Student: [int('StuID'), text('Fname'), text('LName'), int('Age'), int('Advisor')],
    Faculty: [int('FacID'), text('Rank'), text('Building')],
    department: [int('Department_ID'), text('Name'), int('Num_Employees')],
    building: [text('Name'), int('Height_feet'), int('Floors')],
    operate_company: [int('id'), text('name'), text('Type')],
    flight: [int('id'), int('company_id'), int('Velocity')],
  },
};

describe('columns of columns', () => {
  // Columns said of a number column of the row: the row it refers to, which nothing joins.
  const EXAMPLES: Example<string | null>[] = [
    {
      say: "What are the first name and last name of Linda Smith's advisor?",
      on: college,
      means:
        '"first name" is said of "advisor", the number Student.Advisor holds: of the row it refers to, which no key of the data joins',
    },
    {
      say: 'Show the last name of the advisor of each student.',
      on: college,
      means:
        '"last name" is said of "advisor", the number Student.Advisor holds: of the row it refers to, which no key of the data joins',
    },
    // The row's own columns, said of the row's table or of a value: no reference.
    { say: 'What are the first name and age of students?', on: college, means: null },
    { say: "What is Linda Smith's age?", on: college, means: null },
    { say: 'Show the advisor of each student named Linda.', on: college, means: null },
    // A number said as a thing is the row's own (`feet of height`); a word naming a table is that table.
    { say: 'List the names of buildings with at least 200 feet of height.', on: college, means: null },
    { say: 'What are the types of the companies that operated a flight?', on: college, means: null },
    // One phrase naming one column (`number of employees`: Num_Employees), not a column of a column.
    { say: 'What is the average number of employees of the departments?', on: college, means: null },
  ];
  readingCorpus(EXAMPLES, (p) => p.doubts.find((d) => d.includes(' is said of ')) ?? null);
});
