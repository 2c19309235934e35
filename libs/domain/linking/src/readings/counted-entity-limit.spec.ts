import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';

/** Airlines and the routes they run (routes refer to their airline). */
const airlines: LinkSchema = {
  streaming: false,
  tables: {
    airlines: [{ name: 'alid', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'country', data_type: 'VARCHAR' }],
    routes: [{ name: 'rid', data_type: 'INTEGER' }, { name: 'alid', data_type: 'INTEGER' }, { name: 'src_apid', data_type: 'INTEGER' }],
  },
  keys: {
    airlines: { primaryKey: ['alid'] },
    routes: { primaryKey: ['rid'], foreignKeys: [{ columns: ['alid'], references: { table: 'airlines', columns: ['alid'] } }] },
  },
}; // prettier-ignore

describe('counted-entity-limit', () => {
  // [ORDER BY, LIMIT]
  const EXAMPLES: Example<[string | null, number | null]>[] = [
    // An entity said in the singular, ranked by a count: one answer.
    { say: 'Find the name of airline which runs the most number of routes.', on: airlines, means: ['count(*) desc', 1] },
    // Said in the plural: all of them, ranked.
    { say: 'Which airlines run the most routes?', on: airlines, means: ['count(*) desc', null] },
    // A number said is the limit.
    { say: 'the 3 airlines with the most routes', on: airlines, means: ['count(*) desc', 3] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (_p, plan) => [plan?.orderBy ?? null, plan?.limit ?? null]);
});
