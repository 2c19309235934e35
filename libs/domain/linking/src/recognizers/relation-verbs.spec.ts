import { stateCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [verb, subject, object] per relation found; the object null for a pronoun. */
type Said = [verb: string, subject: string, object: string | null][];

describe('relation-verbs', () => {
  const on = scholarSchema();
  const EXAMPLES: Example<Said>[] = [
    { say: 'How many authors have published more than 2 papers?', on, means: [['published', 'authors', 'papers']] },
    { say: 'Which venues are associated with the most papers?', on, means: [['associated', 'venues', 'papers']] },
    { say: 'the 5 venues with the most authors associated with them', on, means: [['associated', 'authors', null]] },
    { say: 'names of the restaurants that serve Italian food', on, means: [['serve', 'restaurants', 'Italian']] },
    // Said again with a pronoun for its subject: the same relation.
    {
      say: 'Which authors have published the most papers, by the number of papers they have published?',
      on,
      means: [
        ['published', 'authors', 'papers'],
        ['published', 'authors', 'papers'],
      ],
    },
    // A verb with nothing named after it relates nothing: it stays for the accounting.
    { say: 'Which authors retired?', on, means: [] },
    // A noun is no verb, whatever it sits between.
    { say: 'papers per venue', on, means: [] },
    // A cue is read by its own rule.
    { say: 'papers that increased the rating', on, means: [] },
  ];
  stateCorpus('relation-verbs', EXAMPLES, (s): Said => {
    const text = (id: number | null) => (id === null ? null : (s.terms.find((t) => t.id === id)?.text ?? '?'));
    return s.relations.map((r) => [r.text, text(r.subject) ?? '?', text(r.object)]);
  });
});
