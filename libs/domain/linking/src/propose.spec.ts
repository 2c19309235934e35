import { parseQueryPlan } from '@nl2p/query-plan';
import { linkRequest } from './link';
import { joinKeyOf, proposePlan } from './propose';
import { demoSchema, streamSchema, taxiSchema } from './testing/fixtures';
import type { LinkSchema } from './types';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();
const propose = (text: string, schema: LinkSchema) => proposePlan(linkRequest(text, schema), schema);

describe('proposePlan', () => {
  it('newcomer: "average temperature per device" is sensor_readings, avg(temperature) by device_id, high', () => {
    const p = propose('average temperature per device', demo);
    expect(p.table).toBe('sensor_readings');
    expect(p.confidence).toBe('high');
    expect(p.unknown).toEqual([]);
    expect(parseQueryPlan(p.plan)).toMatchObject({
      source: 'sensor_readings',
      joins: [],
      select: [
        { kind: 'value', expr: { kind: 'column', ref: { column: 'device_id' } } },
        { kind: 'aggregate', aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'temperature' } } } },
      ],
      group_by: [{ column: 'device_id' }],
      where: null,
      limit: null,
    });
    expect(p.slots.aggregates).toEqual([{ fn: 'avg', of: 'temperature', distinct: false }]);
    expect(p.slots.groupBy.map((g) => g.label)).toEqual(['device_id']);
  });

  it('clarification: words naming nothing in the data come back as unknown, without a plan', () => {
    const p = propose('Average wind speed per device.', demo);
    expect(p.unknown).toEqual(['wind speed']);
    expect(p.plan).toBeNull();
    expect(p.confidence).not.toBe('high');
    expect(propose('Total toll charges per vendor', taxi).unknown).toEqual(['toll charges']);
    expect(propose('Fuel consumption per vehicle per minute.', stream).unknown).toEqual(['Fuel consumption']);
  });

  it('has no plan and no confidence when nothing links to data', () => {
    for (const text of ['Show me the data.', 'Which one is the best?', 'Compare them.']) {
      const p = propose(text, demo);
      expect(p.plan).toBeNull();
      expect(p.confidence).toBe('none');
    }
  });

  it('ranks the tables the words point at', () => {
    const p = propose('List the names of our customers from Germany.', demo);
    expect(p.table).toBe('customers');
    expect(p.tableCandidates[0]?.table).toBe('customers');
    expect(propose('average rating of drivers from Newark', taxi).table).toBe('drivers');
    expect(propose('average fare of Metro Taxi trips', taxi).table).toBe('trips');
  });

  it('projects what the request lists and filters on values and comparisons', () => {
    const p = propose('Show the time and temperature of every reading from device dev-03 above 30 degrees.', demo);
    expect(parseQueryPlan(p.plan)).toMatchObject({
      select: [{ expr: { ref: { column: 'ts' } } }, { expr: { ref: { column: 'temperature' } } }],
      where: {
        kind: 'and',
        conditions: [
          {
            kind: 'compare',
            left: { ref: { column: 'device_id' } },
            op: '=',
            value: { kind: 'string', value: 'dev-03' },
          },
          { kind: 'compare', left: { ref: { column: 'temperature' } }, op: '>', value: { kind: 'number', value: 30 } },
        ],
      },
    });
    const q = propose('Show the pickup time, fare and vendor of trips from Brooklyn', taxi);
    expect(
      parseQueryPlan(q.plan).select.map((s) =>
        s.kind === 'value' && s.expr.kind === 'column' ? s.expr.ref.column : s.kind,
      ),
    ).toEqual(['pickup_ts', 'fare_amt', 'vendor_name']);
  });

  it('joins on a shared key when the words need two tables', () => {
    const p = propose('Revenue (quantity times unit price) per customer country.', demo);
    expect(parseQueryPlan(p.plan)).toMatchObject({
      source: 'orders',
      joins: [
        {
          table: 'customers',
          on: [
            { left: { table: 'orders', column: 'customer_id' }, right: { table: 'customers', column: 'customer_id' } },
          ],
        },
      ],
      group_by: [{ table: 'customers', column: 'country' }],
    });
    const q = propose('How many readings came from devices of model TH-300?', demo);
    expect(parseQueryPlan(q.plan)).toMatchObject({
      source: 'sensor_readings',
      joins: [{ table: 'devices' }],
      where: { kind: 'compare', left: { ref: { table: 'devices', column: 'model' } }, value: { value: 'TH-300' } },
    });
    const r = propose('total fare per driver name', taxi);
    expect(parseQueryPlan(r.plan)).toMatchObject({
      source: 'trips',
      joins: [{ table: 'drivers', on: [{ left: { column: 'driver_id' }, right: { column: 'driver_id' } }] }],
      group_by: [{ table: 'drivers', column: 'full_name' }],
    });
  });

  it('finds join keys by shared id columns and by <table>_id ↔ id', () => {
    expect(joinKeyOf(demo.tables, 'orders', 'customers')).toEqual({ left: 'customer_id', right: 'customer_id' });
    const tables = { trips: [{ name: 'vendor_id' }, { name: 'fare' }], vendors: [{ name: 'id' }, { name: 'name' }] };
    expect(joinKeyOf(tables, 'trips', 'vendors')).toEqual({ left: 'vendor_id', right: 'id' });
    expect(joinKeyOf(tables, 'vendors', 'trips')).toEqual({ left: 'id', right: 'vendor_id' });
    expect(joinKeyOf(demo.tables, 'devices', 'customers')).toBeNull();
  });

  it('SQL targets: daily buckets as dates, bucket start projected', () => {
    const p = parseQueryPlan(propose('Average humidity per device per day (the day as a date).', demo).plan);
    expect(p.time_bucket).toEqual({ column: { column: 'ts' }, unit: 'day', size: 1, as_date: true });
    expect(p.select.map((s) => s.kind)).toEqual(['value', 'bucket', 'aggregate']);
  });

  it('streams: windows, struct fields, no joins', () => {
    const p = parseQueryPlan(propose('The vin and the latitude and longitude of each vehicle position.', stream).plan);
    expect(p.select).toEqual([
      { kind: 'value', expr: { kind: 'column', ref: { column: 'vin' } }, alias: null },
      { kind: 'value', expr: { kind: 'column', ref: { column: 'location', path: ['lat'] } }, alias: null },
      { kind: 'value', expr: { kind: 'column', ref: { column: 'location', path: ['lon'] } }, alias: null },
    ]);
    const q = propose(
      'Per device every 20 seconds, the average temperature, but only emit devices whose average is above 25.',
      stream,
    );
    expect(q.table).toBe('sensor_stream');
    expect(parseQueryPlan(q.plan)).toMatchObject({
      window: { kind: 'tumbling', unit: 'second', size: 20 },
      group_by: [{ column: 'device_id' }],
      having: [{ aggregate: { fn: 'avg' }, op: '>', value: 25 }],
      joins: [],
    });
  });

  it('reports a word that fits several columns equally as ambiguous', () => {
    const p = propose('number of trips per hour by time', taxi);
    expect(p.confidence).toBe('partial');
    expect(p.ambiguous).toEqual([{ phrase: 'time', candidates: ['pickup_ts', 'dropoff_ts'] }]);
    expect(propose('number of trips per hour', taxi).doubts.join(' ')).toMatch(
      /which time column: pickup_ts, dropoff_ts/,
    );
    const named = propose('number of trips per hour of dropoff time', taxi);
    expect(named.confidence).toBe('high');
    expect(parseQueryPlan(named.plan).time_bucket?.column).toEqual({ column: 'dropoff_ts' });
  });

  it('offers candidate slots best first', () => {
    const p = propose('top 3 boroughs by average tip amount', taxi);
    expect(p.slots.tables[0]?.table).toBe('trips');
    expect(p.slots.columns.map((c) => c.label)).toEqual(expect.arrayContaining(['pu_borough', 'tipAmt']));
    expect(p.slots.order).toEqual({ by: 'avg(tipAmt)', direction: 'desc' });
    expect(p.slots.limit).toBe(3);
  });
});

describe('proposePlan on fresh phrasings', () => {
  it('reads numbers inside identifiers as values, not times', () => {
    const p = propose('hourly max temperature for dev-01 on 2 March 2024', demo);
    expect(p.unknown).toEqual([]);
    expect(parseQueryPlan(p.plan).where).toMatchObject({
      kind: 'and',
      conditions: [
        { left: { ref: { column: 'device_id' } }, value: { value: 'dev-01' } },
        { op: '>=', value: { value: '2024-03-02 00:00:00' } },
        { op: '<', value: { value: '2024-03-03 00:00:00' } },
      ],
    });
  });

  it('lists a table when only the table is named', () => {
    expect(parseQueryPlan(propose('show all devices', demo).plan)).toMatchObject({ source: 'devices', select: [] });
    expect(parseQueryPlan(propose('list the drivers', taxi).plan)).toMatchObject({ source: 'drivers', select: [] });
  });

  it('ranks groups by how many rows they have', () => {
    const p = propose('Which segment has the most customers?', demo);
    expect(p.confidence).toBe('high');
    expect(parseQueryPlan(p.plan)).toMatchObject({
      group_by: [{ column: 'segment' }],
      order_by: [{ key: { kind: 'aggregate', aggregate: { fn: 'count', arg: null } }, direction: 'desc' }],
      limit: 1,
    });
  });
});

describe('proposePlan: comparisons that lean on the rest of the request', () => {
  it('a comparison naming no column refers back to the one measure aggregated, row by row, and says so', () => {
    const p = propose('average temperature per device, only above 30', demo);
    expect(p.confidence).toBe('high');
    expect(parseQueryPlan(p.plan)).toMatchObject({
      where: {
        kind: 'compare',
        left: { kind: 'column', ref: { column: 'temperature' } },
        op: '>',
        value: { value: 30 },
      },
      group_by: [{ column: 'device_id' }],
      having: [],
    });
    expect(p.readings).toEqual(['"above 30" is read as temperature > 30 for each row, before aggregating']);
    // The same on a stream, with a window.
    const s = propose('average temperature per device every 10 seconds, only above 30', stream);
    expect(s.confidence).toBe('high');
    expect(s.plan?.where).toMatchObject({ kind: 'compare', left: { ref: { column: 'temperature' } }, op: '>' });
  });

  it('with several measures, or none, which one it means stays a doubt', () => {
    const two = propose('average temperature and average humidity per device, only above 30', demo);
    expect(two.confidence).toBe('partial');
    expect(two.doubts).toContain('no column for "above 30"');
    expect(two.readings).toEqual([]);
    const none = propose('number of readings per device, only above 30', demo);
    expect(none.confidence).toBe('partial');
    expect(none.plan?.where ?? null).toBeNull();
  });

  it('a measure named with its aggregate in a clause about the grouped thing is a HAVING', () => {
    for (const text of [
      'devices whose average temperature exceeds 30',
      'average temperature per device, only devices with an average temperature above 30',
    ]) {
      const p = propose(text, demo);
      expect(p.confidence).toBe('high');
      expect(parseQueryPlan(p.plan)).toMatchObject({
        where: null,
        group_by: [{ column: 'device_id' }],
        having: [
          { aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'temperature' } } }, op: '>', value: 30 },
        ],
      });
    }
    // Said of each row, it stays a row filter.
    expect(propose('average temperature per device where temperature is above 30', demo).plan?.having).toEqual([]);
  });

  it('one aggregate said before a list of measures applies to each of them', () => {
    const p = propose('average temperature and humidity per device', demo);
    expect(p.confidence).toBe('high');
    expect(parseQueryPlan(p.plan).select).toEqual([
      expect.objectContaining({ kind: 'value' }),
      expect.objectContaining({
        aggregate: expect.objectContaining({
          fn: 'avg',
          arg: expect.objectContaining({ ref: expect.objectContaining({ column: 'temperature' }) }),
        }),
      }),
      expect.objectContaining({
        aggregate: expect.objectContaining({
          fn: 'avg',
          arg: expect.objectContaining({ ref: expect.objectContaining({ column: 'humidity' }) }),
        }),
      }),
    ]);
  });

  it('a condition in a clause about the grouped thing, on a measure aggregated, is a HAVING; about the rows, a WHERE', () => {
    expect(
      parseQueryPlan(propose('sum of quantity per product, only products with more than 10 units', demo).plan),
    ).toMatchObject({
      where: null,
      group_by: [{ column: 'product' }],
      having: [{ aggregate: { fn: 'sum', arg: { ref: { column: 'quantity' } } }, op: '>', value: 10 }],
    });
    expect(
      parseQueryPlan(propose('maximum temperature per device, only readings with battery above 20', demo).plan),
    ).toMatchObject({
      where: { kind: 'compare', left: { ref: { column: 'battery' } }, op: '>', value: { value: 20 } },
      having: [],
    });
    expect(
      parseQueryPlan(propose('total fare per vendor, only vendors with fares above 1000', taxi).plan),
    ).toMatchObject({
      where: null,
      having: [{ aggregate: { fn: 'sum', arg: { ref: { column: 'fare_amt' } } }, op: '>', value: 1000 }],
    });
  });

  it('"X with <aggregate> …" groups by X; a condition that needs a group and has none is a doubt, unless every row meets it', () => {
    expect(parseQueryPlan(propose('vendors with an average fare above 30', taxi).plan)).toMatchObject({
      group_by: [{ column: 'vendor_name' }],
      having: [{ aggregate: { fn: 'avg', arg: { ref: { column: 'fare_amt' } } }, op: '>', value: 30 }],
    });
    expect(propose('How many different customers have placed at least one order?', demo).confidence).toBe('high');
  });

  it('a negation reaches past the column named before its value, and negates a yes/no column', () => {
    expect(propose('average humidity except device dev-01', demo).plan?.where).toMatchObject({
      kind: 'compare',
      left: { ref: { column: 'device_id' } },
      op: '!=',
      value: { value: 'dev-01' },
    });
    expect(propose('average speed of vehicles that are not ok', stream).plan?.where).toMatchObject({
      kind: 'compare',
      left: { ref: { column: 'ok' } },
      value: { kind: 'boolean', value: false },
    });
    // Said of the rows in the middle of a list, a negated yes/no column is still a condition.
    const p = propose('minimum speed per vehicle every 30 seconds, not ok vehicles only', stream);
    expect(p.confidence).toBe('high');
    expect(p.plan?.where).toMatchObject({ left: { ref: { column: 'ok' } }, value: { value: false } });
  });

  it('a table named before one of its columns qualifies the aggregated column; a measure said absent is a doubt', () => {
    expect(parseQueryPlan(propose('average order quantity per customer country', demo).plan).select).toContainEqual(
      expect.objectContaining({
        aggregate: expect.objectContaining({
          fn: 'avg',
          arg: expect.objectContaining({ ref: expect.objectContaining({ column: 'quantity' }) }),
        }),
      }),
    );
    const absent = propose('trips without tips', taxi);
    expect(absent.confidence).toBe('partial');
    expect(absent.doubts).toContain('"tips" said absent, with no value to compare');
  });

  it('"the X with the <superlative> …" asks for one X, as "which X" does; a plural asks for the ranking', () => {
    expect(parseQueryPlan(propose('the driver with the best rating', taxi).plan)).toMatchObject({
      source: 'drivers',
      order_by: [{ direction: 'desc' }],
      limit: 1,
    });
    expect(propose('the device with the highest average temperature', demo).plan?.limit).toBe(1);
    expect(propose('the devices with the highest average temperature', demo).plan?.limit ?? null).toBeNull();
  });

  it('rows said to be left out keep the opposite condition; comparisons joined by "or" are either one', () => {
    expect(propose('average temperature per device, excluding readings below 0', demo).plan?.where).toMatchObject({
      kind: 'compare',
      left: { ref: { column: 'temperature' } },
      op: '>=',
      value: { value: 0 },
    });
    expect(propose('readings except those with battery under 20', demo).plan?.where).toMatchObject({
      op: '>=',
      value: { value: 20 },
    });
    expect(propose('trips over 10 km or with a fare above 50', taxi).plan?.where).toMatchObject({
      kind: 'or',
      conditions: [
        { kind: 'compare', left: { ref: { column: 'trip_dist_km' } }, op: '>' },
        { kind: 'compare', left: { ref: { column: 'fare_amt' } }, op: '>' },
      ],
    });
    // `not above` stays the comparison's own negation, not flipped twice.
    expect(propose('show readings where temperature is not above 30', demo).plan?.where).toMatchObject({ op: '<=' });
  });

  it('a grouping cue carries over a list of keys, not over a measure', () => {
    expect(parseQueryPlan(propose('number of trips per vendor, borough and payment type', taxi).plan).group_by).toEqual(
      [
        expect.objectContaining({ column: 'vendor_name' }),
        expect.objectContaining({ column: 'pu_borough' }),
        expect.objectContaining({ column: 'payment_type' }),
      ],
    );
    expect(parseQueryPlan(propose('average temperature and humidity per device', demo).plan).group_by).toEqual([
      expect.objectContaining({ column: 'device_id' }),
    ]);
  });
});
