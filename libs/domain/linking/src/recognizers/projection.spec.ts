import { linkCorpus, type Example } from '../testing/corpus';

describe('projection', () => {
  // The terms said where the request lists what to show.
  const EXAMPLES: Example<string[]>[] = [
    {
      say: 'Show the time and temperature of every reading from device dev-03.',
      means: ['time', 'temperature', 'reading'],
    },
    {
      say: 'List the readings where humidity was below 40 percent: time, device and humidity.',
      means: ['readings', 'time', 'device', 'humidity'],
    },
    { say: 'Customers with the country.', means: ['country'] },
    // No listing word: the request opens with what it wants, up to a clause word (`of` does not close it).
    { say: 'The vin and the speed of each vehicle.', on: 'stream', means: ['vin', 'speed', 'vehicle'] },
  ];
  linkCorpus(EXAMPLES, (l) => l.terms.filter((t) => t.projected).map((t) => t.text));
});
