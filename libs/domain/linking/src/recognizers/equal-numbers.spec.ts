import { linkCorpus, type Example } from '../testing/corpus';
import type { LinkSchema } from '../types';

const documents: LinkSchema = {
  streaming: false,
  values: {},
  tables: {
    documents: [
      { name: 'document_id', data_type: 'INTEGER' },
      { name: 'receipt_date', data_type: 'DATE' },
      { name: 'major', data_type: 'INTEGER' },
      { name: 'pages', data_type: 'INTEGER' },
    ],
  },
};

describe('equal-numbers', () => {
  // `words: op value` and the column it is said of.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'What is the receipt date of the document with id 3?', on: documents, means: ['3: = 3 (id)'] },
    {
      say: 'Documents with the document id 242518965.',
      on: documents,
      means: ['242518965: = 242518965 (document id)'],
    },
    { say: 'Documents that have major 600.', on: documents, means: ['600: = 600 (major)'] },
    // A cue is the comparison's own; a number with a unit, a limit or a count is not a value.
    { say: 'Documents with more than 10 pages.', on: documents, means: ['more than 10: > 10 (pages)'] },
    { say: 'The 3 documents with the most pages.', on: documents, means: [] },
  ];
  linkCorpus(EXAMPLES, (l) =>
    l.comparisons.map((c) => `${c.text}: ${c.op} ${c.value} (${c.subject === null ? '-' : l.terms[c.subject]?.text})`),
  );
});
