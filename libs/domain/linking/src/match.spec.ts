import { buildIndex } from './schema-index';
import { linkRequest } from './link';
import { demoSchema, streamSchema, taxiSchema } from './testing/fixtures';
import type { LinkSchema, Links } from './types';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();

/** The best column label each linked phrase names, as `phrase → table.label`. */
function columns(text: string, schema: LinkSchema): Record<string, string> {
  const links: Links = linkRequest(text, schema);
  return Object.fromEntries(
    links.terms
      .filter((t) => t.columns[0])
      .map((t) => [t.text.toLowerCase(), `${t.columns[0]?.table}.${t.columns[0]?.label}`]),
  );
}

describe('column linking', () => {
  it('matches names exactly, case- and separator-insensitively, and multi-word names', () => {
    expect(columns('TEMPERATURE and Unit Price and unit_price', demo)).toMatchObject({
      temperature: 'sensor_readings.temperature',
      'unit price': 'orders.unit_price',
      unit_price: 'orders.unit_price',
    });
    expect(columns('the pickupTs and the vendor name', taxi)).toMatchObject({
      pickupts: 'trips.pickup_ts',
      'vendor name': 'trips.vendor_name',
    });
  });

  it('spells out abbreviations in column names and in requests', () => {
    expect(columns('fare amount, tip amount, passenger count and trip distance', taxi)).toMatchObject({
      'fare amount': 'trips.fare_amt',
      'tip amount': 'trips.tipAmt',
      'passenger count': 'trips.passenger_cnt',
      'trip distance': 'trips.trip_dist_km',
    });
    expect(columns('avg temp', demo)).toMatchObject({ temp: 'sensor_readings.temperature' });
    expect(columns('latitude and longitude', stream)).toMatchObject({
      latitude: 'vehicle.location->lat',
      longitude: 'vehicle.location->lon',
    });
  });

  it('matches plural and singular, and the telling part of a longer name', () => {
    expect(columns('humidities', demo)).toMatchObject({ humidities: 'sensor_readings.humidity' });
    expect(columns('the fare per borough', taxi)).toMatchObject({
      fare: 'trips.fare_amt',
      borough: 'trips.pu_borough',
    });
  });

  it('reads `time` as a time column and measure words as their column', () => {
    expect(columns('the time of each reading', demo)).toMatchObject({ time: 'sensor_readings.ts' });
    expect(columns('how many units', demo)).toMatchObject({ units: 'orders.quantity' });
  });
});

describe('value linking', () => {
  const values = (text: string, schema: LinkSchema) =>
    linkRequest(text, schema)
      .terms.filter((t) => t.values[0])
      .map((t) => `${t.values[0]?.column}=${t.values[0]?.value}`);

  it('finds distinct values of text columns, any case, multi-word, hyphenated', () => {
    expect(values('readings of DEV-03 at the hamburg-port site', demo)).toEqual([
      'device_id=dev-03',
      'site=hamburg-port',
    ]);
    expect(values('office chair orders from customers in the united states', demo)).toEqual([
      'product=Office Chair',
      'country=United States',
    ]);
    expect(values('trips from staten island paid in CASH', taxi)).toEqual([
      'pu_borough=Staten Island',
      'payment_type=cash',
    ]);
  });

  it('matches a value said in the singular or plural', () => {
    expect(values('the book category', demo)).toEqual(['category=books']);
    expect(values('vouchers', taxi)).toEqual(['payment_type=voucher']);
  });

  it('links a name from a column of names (more than 50 values) only when said as a name', () => {
    // 60 city names, one of them an ordinary word: a column of names, not of categories.
    const cities = [...Array.from({ length: 59 }, (_, k) => `Town ${k}`), 'Reading', 'New York'].slice(0, 61);
    const schema: LinkSchema = {
      tables: {
        stores: [
          { name: 'city', data_type: 'VARCHAR' },
          { name: 'sales', data_type: 'DOUBLE' },
        ],
      },
      values: { stores: { city: cities } },
      streaming: false,
    };
    expect(values('total sales of the stores in New York', schema)).toEqual(['city=New York']);
    expect(values('stores in Reading with sales above 10', schema)).toEqual(['city=Reading']);
    // Said as an ordinary word, `reading` is not the town.
    expect(values('the latest reading of sales per store', schema)).toEqual([]);
    expect(values('stores in new york', schema)).toEqual([]);
  });

  it('takes a quoted value whole, past its little words and brackets', () => {
    const schema: LinkSchema = {
      tables: {
        orders: [
          { name: 'status', data_type: 'VARCHAR' },
          { name: 'city', data_type: 'VARCHAR' },
        ],
      },
      values: { orders: { status: ['On Road', 'Shipped'], city: ['Nanjing ( Jiangsu )', 'Shanghai'] } },
      streaming: false,
    };
    expect(values('orders with status "On Road" in "Nanjing ( Jiangsu )"', schema)).toEqual([
      'status=On Road',
      'city=Nanjing ( Jiangsu )',
    ]);
    // Unquoted, `on` opens no value.
    expect(values('orders on road', schema)).toEqual([]);
  });

  it('prefers the longest phrase: a table name over a value inside it', () => {
    const links = linkRequest('How many sensor readings are there?', demo);
    expect(links.terms.map((t) => [t.text, t.tables[0]?.table, t.values.length])).toEqual([
      ['sensor readings', 'sensor_readings', 0],
    ]);
  });
});

describe('unlinked words', () => {
  it('reports content words that name nothing, joined into phrases', () => {
    expect(linkRequest('Average wind speed per device', demo).unlinked.map((u) => u.text)).toEqual(['wind speed']);
    expect(linkRequest('Average wind speed per device every 10 seconds', stream).unlinked.map((u) => u.text)).toEqual([
      'wind speed',
    ]);
    expect(linkRequest('total toll charges per vendor', taxi).unlinked.map((u) => u.text)).toEqual(['toll charges']);
  });

  it('ignores request verbs, filler and cue words', () => {
    expect(linkRequest('Please show me the total fare of all trips that were paid by card', taxi).unlinked).toEqual([]);
    expect(linkRequest('How many readings did each device send in each hour?', demo).unlinked).toEqual([]);
  });
});

describe('names in a namespace', () => {
  it('a prefix every table or every column of a table shares is also left out', () => {
    const index = buildIndex({
      streaming: false,
      tables: {
        sbCustomer: [
          { name: 'sbCustId', data_type: 'VARCHAR' },
          { name: 'sbCustName', data_type: 'VARCHAR' },
          { name: 'sbCustCountry', data_type: 'VARCHAR' },
        ],
        sbTransaction: [{ name: 'sbTxId', data_type: 'VARCHAR' }],
        sbTicker: [{ name: 'sbTickerSymbol', data_type: 'VARCHAR' }],
      },
    });
    const customer = index.table('sbCustomer');
    expect(customer?.readings.map((r) => r.words.join(' '))).toContain('customer');
    const name = customer?.columns.find((c) => c.column === 'sbCustName');
    expect(name?.readings.map((r) => r.words.join(' '))).toEqual(expect.arrayContaining(['sb cust name', 'name']));
  });
});
