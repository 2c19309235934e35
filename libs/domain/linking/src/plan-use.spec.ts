import { linkRequest } from './link';
import { unusedTerms } from './plan-use';
import { proposePlan } from './propose';
import { carsSchema, demoSchema } from './testing/fixtures';
import type { LinkSchema } from './types';

const cars = carsSchema();
const demo = demoSchema();

function unused(request: string, schema: LinkSchema): string[] {
  const links = linkRequest(request, schema);
  const plan = proposePlan(links, schema).plan;
  if (!plan) throw new Error(`no plan for ${request}`);
  return unusedTerms(links, plan, schema);
}

/** Flights and their pilot, beside a table whose column is `name`: `named` links to it. */
const flights: LinkSchema = {
  streaming: false,
  values: { flight: { pilot: ['Thompson', 'Baker'] } },
  tables: {
    flight: [
      { name: 'flight_id', data_type: 'INTEGER' },
      { name: 'pilot', data_type: 'VARCHAR' },
      { name: 'velocity', data_type: 'DOUBLE' },
    ],
    airport: [
      { name: 'airport_id', data_type: 'INTEGER' },
      { name: 'name', data_type: 'VARCHAR' },
    ],
  },
};

describe('unusedTerms: phrases naming data that the plan does not use', () => {
  it('lets a naming verb before a value go unused: it only says the value is a name', () => {
    expect(unused("What is the velocity of the pilot named 'Thompson'?", flights)).toEqual([]);
  });

  it('finds a clause the plan dropped', () => {
    // Read as a bare count of cars today: the gearbox is named, and nothing in the plan uses it.
    expect(unused('how many cars have an automatic gearbox', cars)).toEqual(['automatic gearbox']);
  });

  it('finds nothing when every phrase is in the plan', () => {
    expect(unused('which of the cars are automatic?', cars)).toEqual([]);
    expect(unused('average price of the cars', cars)).toEqual([]);
    // A yes/no column said after `with` and the rows' noun is their condition (booleans).
    expect(unused('average price of the cars with an automatic gearbox', cars)).toEqual([]);
    expect(unused('average temperature per device above 30 degrees', demo)).toEqual([]);
  });

  it.each([
    // Only time columns: the event's verb or the output's format.
    'Number of orders per month, with the first day of each month as a timestamp.',
    'Which devices are installed at the hamburg-port site? Return their ids.',
    // The whole set.
    'What is the lowest battery level any device reported?',
    'Average temperature per hour over all devices, with the start of each hour.',
    // One thing said in two words.
    'Total quantity sold per product category.',
  ])('lets a phrase go unused where no clause is lost: %s', (request) => {
    expect(unused(request, demo)).toEqual([]);
  });
});
