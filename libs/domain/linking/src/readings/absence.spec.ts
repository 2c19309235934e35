import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [FROM, WHERE, SELECT, the reading or doubt about the absence]. */
type Said = [from: string | null, where: string | null, select: string | null, note: string | null];

describe('absence', () => {
  const on = scholarSchema();
  const EXAMPLES: Example<Said>[] = [
    // Through the bridge: an author who wrote a paper has a writes row.
    {
      say: 'Return the names of authors who have not written any papers.',
      on,
      means: ['author', 'NOT EXISTS (writes: authorid = authorid)', 'authorname', '"written papers" said absent: author rows with no writes row'],
    },
    {
      say: 'List the id of authors who never wrote papers',
      on,
      means: ['author', 'NOT EXISTS (writes: authorid = authorid)', 'authorid', '"wrote papers" said absent: author rows with no writes row'],
    },
    // The key is held by the rows said absent (paper.venueid).
    {
      say: 'venue names with no papers',
      on,
      means: ['venue', 'NOT EXISTS (paper: venueid = venueid)', 'venuename', '"papers" said absent: venue rows with no paper row'],
    },
    // Nothing relates restaurants and papers: the condition is missing and the turn says why.
    {
      say: 'restaurants that have no papers',
      on,
      means: ['restaurant', '', '', '"papers" is said absent, but no key relates restaurant to paper'],
    },
    // A value negated is a condition on the row, not an absence.
    { say: 'names of restaurants whose food type is not Italian', on, means: ['restaurant', "food_type != 'Italian'", 'name', null] },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.from ?? null,
    plan?.where ?? null,
    plan?.select ?? null,
    [...p.readings, ...p.doubts].find((d) => d.includes('absent')) ?? null,
  ]);
});
