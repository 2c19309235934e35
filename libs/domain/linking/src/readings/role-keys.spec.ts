import { buildIndex } from '../schema-index';
import { linksOf, proposalOf, readingCorpus, type Example } from '../testing/corpus';
import type { LinkSchema, PlanProposal } from '../types';
import { chooseRoleKey, roleWords } from './role-keys';
import type { ReadingState } from './state';

const int = (name: string) => ({ name, data_type: 'INTEGER' });
const text = (name: string) => ({ name, data_type: 'VARCHAR' });

/** Two keys from one table to another, each named for the role the employee plays. */
const destruction: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    Employees: [int('Employee_ID'), text('Employee_Name')],
    Documents_to_be_Destroyed: [
      int('Document_ID'),
      int('Destruction_Authorised_by_Employee_ID'),
      int('Destroyed_by_Employee_ID'),
      text('Planned_Destruction_Date'),
    ],
  },
  keys: {
    Employees: { primaryKey: ['Employee_ID'] },
    Documents_to_be_Destroyed: {
      primaryKey: ['Document_ID'],
      foreignKeys: [
        {
          columns: ['Destruction_Authorised_by_Employee_ID'],
          references: { table: 'Employees', columns: ['Employee_ID'] },
        },
        { columns: ['Destroyed_by_Employee_ID'], references: { table: 'Employees', columns: ['Employee_ID'] } },
      ],
    },
  },
};

/** Problems reported by one staff member; their log entries assigned to another. */
const problems: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    Staff: [int('staff_id'), text('staff_first_name')],
    Problems: [int('problem_id'), int('reported_by_staff_id'), text('problem_description')],
    Problem_Log: [int('problem_log_id'), int('problem_id'), int('assigned_to_staff_id'), text('log_entry_description')],
  },
  keys: {
    Staff: { primaryKey: ['staff_id'] },
    Problems: {
      primaryKey: ['problem_id'],
      foreignKeys: [{ columns: ['reported_by_staff_id'], references: { table: 'Staff', columns: ['staff_id'] } }],
    },
    Problem_Log: {
      primaryKey: ['problem_log_id'],
      foreignKeys: [
        { columns: ['assigned_to_staff_id'], references: { table: 'Staff', columns: ['staff_id'] } },
        { columns: ['problem_id'], references: { table: 'Problems', columns: ['problem_id'] } },
      ],
    },
  },
};

/** The ON clause of each join, or the doubt about roles when there is one. */
function joinsOrDoubts(p: PlanProposal): string {
  const role = p.doubts.find((d) => /names the role|roles of /.test(d));
  if (role || !p.plan) return `doubt: ${role ?? p.doubts.join('; ')}`;
  return (p.plan.joins ?? [])
    .map((j) =>
      j.on
        .map((o) => `${o.left.table ?? p.plan?.source}.${o.left.column} = ${j.table}.${o.right.column}`)
        .join(' AND '),
    ) // prettier-ignore
    .join(', ');
}

describe('role keys', () => {
  const EXAMPLES: Example<string>[] = [
    // The verb said picks the key named for it.
    {
      say: 'Names of the employees who destroyed documents.',
      on: destruction,
      means: 'Documents_to_be_Destroyed.Destroyed_by_Employee_ID = Employees.Employee_ID',
    },
    // `authorised the destruction` says all of one role and half of the other.
    {
      say: 'Names of the employees who authorised the destruction of documents.',
      on: destruction,
      means: 'Documents_to_be_Destroyed.Destruction_Authorised_by_Employee_ID = Employees.Employee_ID',
    },
    // Two roles of one table: the plan joins a table once, so one role is never read as both.
    {
      say: 'Names of the employees who authorised the destruction and the employees who destroyed the documents.',
      on: destruction,
      means:
        'doubt: "destruction" and "destroyed" name Documents_to_be_Destroyed.Destruction_Authorised_by_Employee_ID or Documents_to_be_Destroyed.Destroyed_by_Employee_ID, two roles of Employees; the plan joins a table once',
    },
    // No role said where the keys differ: which employee is meant is a guess.
    {
      say: 'Employee names of the documents.',
      on: destruction,
      means:
        'doubt: Employees joins Documents_to_be_Destroyed on Documents_to_be_Destroyed.Destruction_Authorised_by_Employee_ID or Documents_to_be_Destroyed.Destroyed_by_Employee_ID; nothing said names the role',
    },
    // Grouped by the referenced table: the role said picks the key grouped on.
    {
      say: 'Number of documents per employee who destroyed them.',
      on: destruction,
      means: 'Documents_to_be_Destroyed.Destroyed_by_Employee_ID = Employees.Employee_ID',
    },
    // The role said is another table's key: the join at hand would read `assigned` as `reported`.
    {
      say: 'Log entry descriptions of the problems reported by the staff whose first name is Christop.',
      on: problems,
      means:
        'doubt: "reported" names the role Problems.reported_by_staff_id, but Staff is joined on Problem_Log.assigned_to_staff_id',
    },
    // The role said is the key's own: joined as said.
    {
      say: 'Log entry descriptions assigned to the staff named Christop.',
      on: problems,
      means: 'Problem_Log.assigned_to_staff_id = Staff.staff_id',
    },
  ];
  readingCorpus(EXAMPLES, (p) => joinsOrDoubts(p));

  it('groups by the key whose role is said (`per authorising employee`), never the first of two silently', () => {
    const groupKeys = (say: string) => proposalOf(say, destruction).plan?.group_by?.map((r) => r.column);
    expect(groupKeys('Number of documents per authorising employee.')).toEqual([
      'Destruction_Authorised_by_Employee_ID',
    ]);
    expect(proposalOf('Number of documents per employee.', destruction).doubts).toContain(
      'Documents_to_be_Destroyed joins Employees on Documents_to_be_Destroyed.Destruction_Authorised_by_Employee_ID or Documents_to_be_Destroyed.Destroyed_by_Employee_ID; nothing said names the role',
    );
  });

  it('reads the role out of a key name: what the referenced table and the key do not say', () => {
    expect(roleWords('Destroyed_by_Employee_ID', 'Employees', 'Employee_ID')).toEqual(['destroyed']);
    expect(roleWords('Destruction_Authorised_by_Employee_ID', 'Employees', 'Employee_ID')).toEqual([
      'destruction',
      'authorised',
    ]);
    expect(roleWords('reported_by_staff_id', 'Staff', 'staff_id')).toEqual(['reported']);
    expect(roleWords('Winning_Aircraft', 'aircraft', 'Aircraft_ID')).toEqual(['winning']);
    expect(roleWords('manager_id', 'employees', 'employee_id')).toEqual(['manager']);
    expect(roleWords('customer_id', 'customers', 'customer_id')).toEqual([]);
  });

  it('a word of the same dictionary form says the role (`destroying`), one key between two tables is no choice', () => {
    const state = (say: string, schema: LinkSchema) =>
      ({ links: linksOf(say, schema), schema, index: buildIndex(schema) }) as unknown as ReadingState;
    const s = state('documents and the employee destroying them', destruction);
    expect(chooseRoleKey(s, 'Documents_to_be_Destroyed', 'Employees').kind).toBe('said');
    expect(chooseRoleKey(state('problems', problems), 'Problems', 'Staff').kind).toBe('one');
  });
});
