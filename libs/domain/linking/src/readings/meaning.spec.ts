import { readingCorpus, type Example } from '../testing/corpus';
import { meaningSchema } from '../testing/meaning-schema';

/** The plan's FROM and SELECT, and the readings the turn shows. */
type Said = [from: string | null, select: string | null, readings: string[]];

const on = meaningSchema();

describe('meaning', () => {
  const EXAMPLES: Example<Said>[] = [
    // A unit suffix names its quantity: "cost" meets freight_usd.
    {
      say: 'what did each shipment cost?',
      on,
      means: ['shipments', 'freight_usd', ['"shipment cost" is read as freight_usd']],
    },
    // A compound is said by its synonyms: "plants" are power stations.
    {
      say: 'which region has the most plants?',
      on,
      means: ['power_stations', 'region, count(*)', ['"plants" is read as the table power_stations']],
    },
    // Words said the way the name spells them need no such note.
    { say: 'the region of each power station', on, means: ['power_stations', 'station_id, region', []] },
  ];
  readingCorpus(EXAMPLES, (p, plan): Said => [plan?.from ?? null, plan?.select ?? null, p.readings]);
});
