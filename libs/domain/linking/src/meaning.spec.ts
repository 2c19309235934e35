import { linkRequest } from './link';
import { proposePlan } from './propose';
import type { LinkSchema } from './types';

/** A schema unlike the demo's: its names say things the requests say in other words. */
const schema: LinkSchema = {
  streaming: false,
  tables: {
    drivers: [
      { name: 'driver_id', data_type: 'INTEGER' },
      { name: 'name', data_type: 'VARCHAR' },
      { name: 'age', data_type: 'INTEGER' },
    ],
    shipments: [
      { name: 'shipment_id', data_type: 'INTEGER' },
      { name: 'freight_usd', data_type: 'DOUBLE' },
      { name: 'ship_date', data_type: 'DATE' },
    ],
    power_stations: [
      { name: 'station_id', data_type: 'INTEGER' },
      { name: 'region', data_type: 'VARCHAR' },
      { name: 'capacity_mw', data_type: 'DOUBLE' },
    ],
  },
};

function read(request: string) {
  const p = proposePlan(linkRequest(request, schema), schema);
  return { plan: JSON.stringify(p.plan), confidence: p.confidence, readings: p.readings };
}

describe('words that meet names by meaning, and say so', () => {
  it('a unit suffix names its quantity: "cost" meets freight_usd', () => {
    const r = read('what did each shipment cost?');
    expect(r.plan).toContain('"column":"freight_usd"');
    expect(r.readings).toContain('"shipment cost" is read as freight_usd');
  });

  it('a compound is said by its synonyms: "plants" are power stations', () => {
    const r = read('which region has the most plants?');
    expect(r.plan).toContain('"source":"power_stations"');
    expect(r.plan).toContain('"limit":1');
    expect(r.readings).toContain('"plants" is read as the table power_stations');
  });

  it('an order without a direction is ascending, and the turn says so', () => {
    const r = read('names of the drivers sorted by age');
    expect(r.plan).toContain('"direction":"asc"');
    expect(r.readings).toContain('"sorted by age" is read as ascending');
  });

  it('words said the way the name spells them need no such note', () => {
    expect(read('the region of each power station').readings).toEqual([]);
  });
});
