import { readingCorpus, type Example } from '../testing/corpus';

describe('unexplained', () => {
  // The doubts about words the plan did not place.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Number of readings where humidity is recorded.', means: ['"humidity" has no role'] },
    { say: 'Average temperature per device.', means: [] },
    // Said again: the first mention has the role.
    { say: 'The names of the customers who ordered a Gateway Hub, each name once.', means: [] },
  ];
  readingCorpus(EXAMPLES, (p) =>
    p.doubts.filter((d) => d.endsWith('has no role') || d.includes('unresolved') || d.includes('cannot be joined')),
  );
});
