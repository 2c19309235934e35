import { stateCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [the words of the match, the term it is about]. */
type Said = [words: string, subject: string | null][];

describe('text-matches', () => {
  const on = scholarSchema();
  const EXAMPLES: Example<Said>[] = [
    { say: "papers whose title contains 'graph'", on, means: [["contains 'graph'", 'title']] },
    {
      say: "venues that have 'ACL' in their venue name",
      on,
      means: [["have 'ACL' in their venue name", 'venue name']],
    },
    { say: "authors starting with 'A'", on, means: [["starting with 'A'", 'authors']] },
    { say: "containing 'graph'", on, means: [["containing 'graph'", null]] },
  ];
  stateCorpus('text-matches', EXAMPLES, (s): Said =>
    s.textMatches.map((m) => [
      m.text,
      m.subject === null ? null : (s.terms.find((t) => t.id === m.subject)?.text ?? '?'),
    ]),
  );
});
