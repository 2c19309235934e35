import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

const courses: LinkSchema = {
  streaming: false,
  tables: {
    course: [{ name: 'course_id', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'department', data_type: 'VARCHAR' }],
    course_offering: [{ name: 'offering_id', data_type: 'INTEGER' }, { name: 'course_id', data_type: 'INTEGER' }, { name: 'semester', data_type: 'INTEGER' }, { name: 'section_number', data_type: 'INTEGER' }],
  },
  keys: { course: { primaryKey: ['course_id'] }, course_offering: { primaryKey: ['offering_id'], foreignKeys: [{ columns: ['course_id'], references: { table: 'course', columns: ['course_id'] } }] } },
}; // prettier-ignore

const rooms: LinkSchema = {
  streaming: false,
  tables: { Rooms: [{ name: 'RoomId', data_type: 'VARCHAR' }, { name: 'bedType', data_type: 'VARCHAR' }, { name: 'decor', data_type: 'VARCHAR' }] },
  values: { Rooms: { bedType: ['Double', 'King', 'Queen'], decor: ['modern', 'rustic'] } },
}; // prettier-ignore

describe('grouping', () => {
  // The GROUP BY.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Average temperature per device.', means: 'device_id' },
    { say: 'Number of orders per customer segment.', means: 'customers.segment' },
    { say: 'Revenue (quantity times unit price) per customer country.', means: 'customers.country' },
    { say: 'Which segment has the most customers?', means: 'segment' },
    // The noun a limit ranks, when something is computed per it.
    { say: 'The 3 devices with the highest average temperature.', means: 'device_id' },
    // `which`/`each` with nothing computed is a quantifier; a table is not grouped by its own rows.
    { say: 'Which orders were cancelled?', means: '' },
    { say: 'Average quantity per order.', means: '' },
    // Read as one noun whose head is the rows themselves (`offer`: an offering), the word before
    // the head is what is grouped by.
    { say: 'How many courses does each department offer?', on: courses, means: 'course.department' },
    // A head met only as a generic word yields to the word before it that spells a column.
    { say: 'Find the number of rooms with king bed for each decor type.', on: rooms, means: 'decor' },
    { say: 'Find the number of rooms for each bed type.', on: rooms, means: 'bedType' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.groupBy ?? null);
});
