import { readingCorpus, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

/** Flags kept as text: `Y`/`N` in a column whose name starts with a preposition, `yes`/`no` in another. */
const sports: LinkSchema = {
  streaming: false,
  values: { sports_info: { OnScholarship: ['N', 'Y'], Injured: ['no', 'yes'], SportName: ['Football', 'Tennis'] } },
  tables: {
    sports_info: [{ name: 'StuID', data_type: 'INTEGER' }, { name: 'SportName', data_type: 'VARCHAR' }, { name: 'OnScholarship', data_type: 'VARCHAR' }, { name: 'Injured', data_type: 'VARCHAR' }],
  },
}; // prettier-ignore

describe('booleans', () => {
  // The WHERE a yes/no column said as a condition makes.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Vehicles that are not ok.', on: 'stream', means: 'ok = false' },
    { say: 'Show the vin of vehicles that are ok.', on: 'stream', means: 'ok = true' },
    { say: 'The vin of the ok vehicles.', on: 'stream', means: 'ok = true' },
    // Listed, not said of the rows: shown, not a condition.
    { say: 'Show the vin and ok of each vehicle.', on: 'stream', means: '' },
    // A yes/no kept as text compares with its own spelling of yes (or no).
    { say: 'Show the student ids of sports info rows on scholarship.', on: sports, means: "OnScholarship = 'Y'" },
    { say: 'Show the student ids of sports info rows not on scholarship.', on: sports, means: "OnScholarship = 'N'" },
    { say: 'Show the sport names of sports info rows that are not injured.', on: sports, means: "Injured = 'no'" },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.where ?? null);
});
