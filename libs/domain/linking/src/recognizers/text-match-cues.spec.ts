import { stateCorpus, type Example } from '../testing/corpus';

/** [match, text] per text match found. */
type Said = [match: string, value: string][];

describe('text-match-cues', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: "Which head's name has the substring 'Ha'?", means: [['contains', 'Ha']] },
    { say: 'names of journals that start with the letter "J"', means: [['starts_with', 'J']] },
    { say: 'products whose name starts with letter S', means: [['starts_with', 'S']] },
    { say: "customers whose last name ends with 'son'", means: [['ends_with', 'son']] },
    { say: 'titles containing the word "Database Systems"', means: [['contains', 'Database Systems']] },
    { say: "cars that have 'Ford' in their make name", means: [['contains', 'Ford']] },
    { say: "devices including 'dev-0'", means: [['contains', 'dev-0']] },
    // `with` a value is equality, not a match: no cue.
    { say: "customers with 'Gold' status", means: [] },
    // A quote never closed is no text.
    { say: "names containing 'Ha", means: [] },
  ];
  stateCorpus('text-match-cues', EXAMPLES, (s): Said => s.textMatchCues.map((c) => [c.match, c.value]));
});
