import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [WHERE, the doubt about a text match]. */
type Said = [where: string | null, doubt: string | null];

describe('text-matches', () => {
  const on = scholarSchema();
  const EXAMPLES: Example<Said>[] = [
    { say: "titles of papers whose title contains 'graph'", on, means: ["title contains 'graph'", null] },
    { say: "venues that have 'ACL' in their venue name", on, means: ["venuename contains 'ACL'", null] },
    // The table said: its one name column.
    { say: "authors starting with 'A'", on, means: ["authorname starts_with 'A'", null] },
    { say: "restaurant names ending with 'Grill'", on, means: ["name ends_with 'Grill'", null] },
    // Another table's column: joined.
    {
      say: "titles of papers in venues whose venue name starts with 'ACL'",
      on,
      means: ["venue.venuename starts_with 'ACL'", null],
    },
    // The table said, with a name among its text columns: the name.
    { say: "restaurants containing 'Pizza'", on, means: ["name contains 'Pizza'", null] },
    // Nothing textual to match: no condition, and the turn says why.
    { say: "writes containing 'x'", on, means: ['', 'no text column for "containing \'x\'"'] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.where ?? null,
    p.doubts.find((d) => d.includes('text column')) ?? null,
  ]);
});
