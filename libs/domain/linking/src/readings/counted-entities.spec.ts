import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** Departments and their employees, employees on projects through a link table; declared keys only. */
const company: LinkSchema = {
  streaming: false,
  tables: {
    departments: [{ name: 'department_id', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'budget', data_type: 'DOUBLE' }],
    employees: [{ name: 'employee_id', data_type: 'INTEGER' }, { name: 'full_name', data_type: 'VARCHAR' }, { name: 'phone', data_type: 'VARCHAR' }, { name: 'department_id', data_type: 'INTEGER' }],
    projects: [{ name: 'project_id', data_type: 'INTEGER' }, { name: 'title', data_type: 'VARCHAR' }],
    assignments: [{ name: 'employee_id', data_type: 'INTEGER' }, { name: 'project_id', data_type: 'INTEGER' }],
  },
  keys: {
    departments: { primaryKey: ['department_id'] },
    employees: { primaryKey: ['employee_id'], foreignKeys: [{ columns: ['department_id'], references: { table: 'departments', columns: ['department_id'] } }] },
    projects: { primaryKey: ['project_id'] },
    assignments: { foreignKeys: [{ columns: ['employee_id'], references: { table: 'employees', columns: ['employee_id'] } }, { columns: ['project_id'], references: { table: 'projects', columns: ['project_id'] } }] },
  },
}; // prettier-ignore

/** Parties keep how many hosts they had beside the hosts themselves. */
const parties: LinkSchema = {
  streaming: false,
  tables: {
    party: [{ name: 'party_id', data_type: 'INTEGER' }, { name: 'location', data_type: 'VARCHAR' }, { name: 'number_of_hosts', data_type: 'INTEGER' }],
    host: [{ name: 'host_id', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }],
    party_host: [{ name: 'party_id', data_type: 'INTEGER' }, { name: 'host_id', data_type: 'INTEGER' }],
  },
  keys: {
    party: { primaryKey: ['party_id'] },
    host: { primaryKey: ['host_id'] },
    party_host: { foreignKeys: [{ columns: ['party_id'], references: { table: 'party', columns: ['party_id'] } }, { columns: ['host_id'], references: { table: 'host', columns: ['host_id'] } }] },
  },
}; // prettier-ignore

/** [SELECT, GROUP BY, HAVING, ORDER BY, LIMIT]. */
type Said = [
  select: string | null,
  groupBy: string | null,
  having: string | null,
  orderBy: string | null,
  limit: number | null,
];

describe('counted-entities', () => {
  const EXAMPLES: Example<Said>[] = [
    // A superlative over another table's rows: grouped by the entity's key, shown by its name.
    { say: 'Which department has the most employees?', on: company, means: ['departments.name, count(*)', 'department_id, departments.name', '', 'count(*) desc', 1] },
    { say: 'the name of the department with the fewest employees', on: company, means: ['departments.name, count(*)', 'department_id, departments.name', '', 'count(*) asc', 1] },
    // The entity read, the counted rows joined, through a link table when there is one.
    { say: 'the 3 employees on the most projects', on: company, means: ['employees.full_name, count(*)', 'employee_id, employees.full_name', '', 'count(*) desc', 3] },
    // What the request lists of the entity is shown, its key only when asked for.
    { say: 'the id, name and phone of the employee with the most projects', on: company, means: ['employee_id, full_name, phone, count(*)', 'employee_id, full_name, phone', '', 'count(*) desc', 1] },
    // A threshold on the count: HAVING.
    { say: 'names of the departments with more than 3 employees', on: company, means: ['departments.name, count(*)', 'department_id, departments.name', 'count(*) > 3', '', null] },
    { say: 'employees with at least 2 projects', on: company, means: ['employees.full_name, count(*)', 'employee_id, employees.full_name', 'count(*) >= 2', '', null] },
    // Counted through the link table: one row per employee on the project.
    { say: 'Show the titles of projects that have more than 2 employees.', on: company, means: ['title, count(*)', 'project_id, title', 'count(*) > 2', '', null] },
    // A column that holds the count already is no count of rows (order-limit sorts on it).
    { say: 'What is the location of the party with the most hosts?', on: parties, means: ['location', '', '', 'number_of_hosts desc', 1] },
    // A superlative that says what it ranks by (`hottest`) is no count.
    { say: 'The 3 hottest readings: time, device and temperature, hottest first.', means: ['ts, device_id, temperature', '', '', 'temperature desc', 3] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (_p, plan): Said => [
    plan?.select ?? null,
    plan?.groupBy ?? null,
    plan?.having ?? null,
    plan?.orderBy ?? null,
    plan?.limit ?? null,
  ]);
});
