import { linkCorpus, type Example } from '../testing/corpus';
import { staffSchema } from '../testing/fixtures';
import type { Links } from '../types';

/** `words: op quantifier set`, with the subject said before the cue and the columns the comparative evokes; and the groups. */
type Said = { said: string[]; groups: string[] };

const said = (l: Links): Said => ({
  said: l.quantifiedComparisons.map((c) => {
    const subject = c.subject !== null ? ` of ${l.terms[c.subject]?.text}` : '';
    const hinted = c.hinted.length ? ` (${[...new Set(c.hinted.map((h) => h.label))].join(', ')})` : '';
    return `${c.text}: ${c.op} ${c.quantifier} ${l.terms[c.set]?.text}${subject}${hinted}`;
  }),
  groups: l.groups.map((g) => g.text),
});

describe('quantified-comparisons', () => {
  const on = staffSchema();
  const EXAMPLES: Example<Said>[] = [
    { say: 'employees older than every director', on, means: { said: ['older than every director: > all director (age)'], groups: [] } },
    { say: 'employees whose salary is higher than all engineers', on, means: { said: ['higher than all engineers: > all engineers of salary'], groups: [] } },
    { say: 'employees younger than all of the other directors', on, means: { said: ['younger than all of the other directors: < all directors (age)'], groups: [] } },
    { say: 'employees older than any director', on, means: { said: ['older than any director: > any director (age)'], groups: [] } },
    // A preposition, not a comparison: `over all readings`, `above all`.
    { say: 'What is the average humidity over all readings?', means: { said: [], groups: [] } },
    { say: 'trips with a fare above every cash trip', on: 'taxi', means: { said: ['above every cash: > all cash of fare'], groups: [] } },
    // No cue right before the quantifier: a grouping, not a comparison.
    { say: 'average salary for every job', on, means: { said: [], groups: ['every job'] } },
  ]; // prettier-ignore
  linkCorpus(EXAMPLES, said);
});
