import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [SQL of the plan's FROM and joins, the relation's reading or doubt]. */
type Said = [from: string | null, note: string | null];

describe('relations', () => {
  const on = scholarSchema();
  const EXAMPLES: Example<Said>[] = [
    // One way from authors to papers (through writes): the verb is that join (counted from writes).
    {
      say: 'How many authors have published more than 2 papers?',
      on,
      means: ['writes', '"published" is read as what relates author and paper in the data'],
    },
    // A value of the row's own column: the row holds it, no join.
    { say: 'names of the restaurants that serve Italian food', on, means: ['restaurant', null] },
    {
      say: 'Which venues are associated with the most papers?',
      on,
      means: ['paper', '"associated" is read as what relates venue and paper in the data'],
    },
    // Nothing in the data relates restaurants and papers: no plan is offered.
    {
      say: 'restaurants that inspired papers',
      on,
      means: [null, '"inspired" relates restaurant and paper, but the data has no join between them'],
    },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.from ?? null,
    [...p.readings, ...p.doubts].find((d) => d.includes('relates')) ?? null,
  ]);
});
