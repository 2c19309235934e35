import { readingCorpus, type Example } from '../testing/corpus';
import { meaningSchema } from '../testing/meaning-schema';
import type { LinkSchema } from '../types';

/** [ORDER BY, the doubt about the order]. */
type Said = [orderBy: string | null, doubt: string | null];

const students: LinkSchema = {
  streaming: false,
  tables: { students: [{ name: 'student_id', data_type: 'INTEGER' }, { name: 'personal_name', data_type: 'VARCHAR' }, { name: 'family_name', data_type: 'VARCHAR' }] },
}; // prettier-ignore

describe('alphabetical-order', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'names of the drivers in alphabetical order', on: meaningSchema(), means: ['name asc', null] },
    { say: 'List the drivers names alphabetically.', on: meaningSchema(), means: ['name asc', null] },
    { say: 'driver names in reverse alphabetical order', on: meaningSchema(), means: ['name desc', null] },
    // A column said is the key; `alphabetically` only gives the direction.
    { say: 'drivers sorted by name alphabetically', on: meaningSchema(), means: ['name asc', null] },
    // A column named after the order is its key, shown first or not.
    {
      say: 'personal names and family names of the students in alphabetical order of family name',
      on: students,
      means: ['family_name asc', null],
    },
    {
      say: 'personal names and family names of the students in alphabetical order',
      on: students,
      means: ['personal_name asc', null],
    },
    // Grouped: the name shown is the group key.
    { say: 'number of power stations per region, alphabetically', on: meaningSchema(), means: ['region asc', null] },
    // Nothing textual shown: nothing to sort on, and the turn does not pretend.
    {
      say: 'the age of each driver, alphabetically',
      on: meaningSchema(),
      means: [null, 'nothing to sort "alphabetically" on'],
    },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [plan?.orderBy || null, p.doubts.find((d) => d.includes('sort')) ?? null]);
});
