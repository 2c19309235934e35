import { readingCorpus, type Example } from '../testing/corpus';

describe('booleans', () => {
  // The WHERE a yes/no column said as a condition makes.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'Vehicles that are not ok.', on: 'stream', means: 'ok = false' },
    { say: 'Show the vin of vehicles that are ok.', on: 'stream', means: 'ok = true' },
    { say: 'The vin of the ok vehicles.', on: 'stream', means: 'ok = true' },
    // Listed, not said of the rows: shown, not a condition.
    { say: 'Show the vin and ok of each vehicle.', on: 'stream', means: '' },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.where ?? null);
});
