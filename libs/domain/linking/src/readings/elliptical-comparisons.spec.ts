import { readingCorpus, type Example } from '../testing/corpus';

/** [WHERE, the reading shown or the doubt]. */
type Said = [where: string | null, note: string];

describe('elliptical-comparisons', () => {
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'Average temperature per device, only above 30.',
      means: ['temperature > 30', '"above 30" is read as temperature > 30 for each row, before aggregating'],
    },
    // Two measures it could mean: no guess.
    { say: 'Average temperature and humidity per device, only above 30.', means: [null, 'no column for "above 30"'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.where || null,
    [...p.readings, ...p.doubts.filter((d) => d.startsWith('no column for'))].join('; '),
  ]);
});
