import { stateCorpus, tokenWords, type Example } from '../testing/corpus';

describe('operators', () => {
  // The operator's words are owned (no cue, no grouping `by`); the word `times` elsewhere is not one.
  const EXAMPLES: Example<string[]>[] = [
    { say: 'Revenue as quantity times unit price.', means: ['times'] },
    { say: 'Fare divided by distance per trip.', on: 'taxi', means: ['divided', 'by'] },
    { say: 'Fare plus tip.', on: 'taxi', means: ['plus'] },
    { say: 'How many times did each device report?', means: [] },
  ];
  stateCorpus('operators', EXAMPLES, (s) => tokenWords(s, s.taken));
});
