import type { LinkSchema } from '../types';
// The demo generator is a pure module (no imports, no I/O); going through @nl2p/engine would load
// the DuckDB and PostgreSQL drivers into every linking spec.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { demoDataset } from '../../../../engine/src/sql/demo-dataset';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { DUCKDB_DEMO_TYPES } from '../../../../engine/src/duckdb/demo-types';

/** The demo dataset as the DuckDB catalog presents it: columns, and values of text columns with ≤ 50. */
export function demoSchema(): LinkSchema {
  const tables: LinkSchema['tables'] = {};
  const values: NonNullable<LinkSchema['values']> = {};
  for (const t of demoDataset()) {
    tables[t.name] = t.columns.map((c) => ({ name: c.name, data_type: DUCKDB_DEMO_TYPES[c.type] }));
    t.columns.forEach((c, i) => {
      if (c.type !== 'text') return;
      const distinct = [...new Set(t.rows.map((r) => String(r[i])))].sort();
      if (distinct.length <= 50) (values[t.name] ??= {})[c.name] = distinct;
    });
  }
  return { tables, values, streaming: false };
}

/** A made-up taxi schema, unlike the demo in every name: abbreviations, prefixes, camelCase. */
export function taxiSchema(): LinkSchema {
  return {
    streaming: false,
    tables: {
      trips: [
        { name: 'trip_id', data_type: 'BIGINT' },
        { name: 'vendor_name', data_type: 'VARCHAR' },
        { name: 'pickup_ts', data_type: 'TIMESTAMP' },
        { name: 'dropoff_ts', data_type: 'TIMESTAMP' },
        { name: 'passenger_cnt', data_type: 'INTEGER' },
        { name: 'trip_dist_km', data_type: 'DOUBLE' },
        { name: 'fare_amt', data_type: 'DECIMAL(10,2)' },
        { name: 'tipAmt', data_type: 'DECIMAL(10,2)' },
        { name: 'pu_borough', data_type: 'VARCHAR' },
        { name: 'payment_type', data_type: 'VARCHAR' },
        { name: 'driver_id', data_type: 'INTEGER' },
      ],
      drivers: [
        { name: 'driver_id', data_type: 'INTEGER' },
        { name: 'full_name', data_type: 'VARCHAR' },
        { name: 'home_city', data_type: 'VARCHAR' },
        { name: 'rating', data_type: 'DOUBLE' },
      ],
    },
    values: {
      trips: {
        vendor_name: ['Yellow Cab Co', 'GreenRide', 'Metro Taxi'],
        pu_borough: ['Manhattan', 'Brooklyn', 'Queens', 'Bronx', 'Staten Island'],
        payment_type: ['cash', 'card', 'voucher'],
      },
      drivers: { home_city: ['Newark', 'Jersey City', 'Yonkers'] },
    },
  };
}

/** veloFlux streams as the Manager describes them, one with a struct and a boolean. */
export function streamSchema(): LinkSchema {
  return {
    streaming: true,
    tables: {
      vehicle: [
        { name: 'vin', data_type: 'string' },
        { name: 'speed', data_type: 'int64' },
        {
          name: 'location',
          data_type: 'struct',
          fields: [
            { name: 'lat', data_type: 'float64' },
            { name: 'lon', data_type: 'float64' },
          ],
        },
        { name: 'ok', data_type: 'bool' },
        { name: 'seen_at', data_type: 'timestamp' },
      ],
      sensor_stream: [
        { name: 'device_id', data_type: 'string' },
        { name: 'temperature', data_type: 'float64' },
        { name: 'humidity', data_type: 'float64' },
        { name: 'ts', data_type: 'int64' },
      ],
    },
  };
}

/** Names written the way schemas write them: a yes/no column with its verb, a unit suffix, a key by initials. */
export function carsSchema(): LinkSchema {
  return {
    streaming: false,
    values: {},
    tables: {
      cars: [
        { name: 'car_id', data_type: 'INTEGER' },
        { name: 'model', data_type: 'VARCHAR' },
        { name: 'has_auto_gearbox', data_type: 'BOOLEAN' },
        { name: 'price_usd', data_type: 'DOUBLE' },
      ],
      checkin: [
        { name: 'cid', data_type: 'INTEGER' },
        { name: 'car_id', data_type: 'INTEGER' },
        { name: 'count', data_type: 'INTEGER' },
      ],
    },
  };
}

/**
 * Things related through bridge tables, with declared keys: authors write papers (writes),
 * papers cite papers (cites), papers appear in venues, restaurants hold their food type.
 */
export function scholarSchema(): LinkSchema {
  const fk = (column: string, table: string, target = column) => ({
    columns: [column],
    references: { table, columns: [target] },
  });
  return {
    streaming: false,
    values: { restaurant: { food_type: ['Italian', 'Mexican', 'Vegan'] } },
    tables: {
      author: [
        { name: 'authorid', data_type: 'INTEGER' },
        { name: 'authorname', data_type: 'VARCHAR' },
      ],
      paper: [
        { name: 'paperid', data_type: 'INTEGER' },
        { name: 'title', data_type: 'VARCHAR' },
        { name: 'year', data_type: 'INTEGER' },
        { name: 'venueid', data_type: 'INTEGER' },
      ],
      writes: [
        { name: 'paperid', data_type: 'INTEGER' },
        { name: 'authorid', data_type: 'INTEGER' },
      ],
      venue: [
        { name: 'venueid', data_type: 'INTEGER' },
        { name: 'venuename', data_type: 'VARCHAR' },
      ],
      restaurant: [
        { name: 'id', data_type: 'INTEGER' },
        { name: 'name', data_type: 'VARCHAR' },
        { name: 'food_type', data_type: 'VARCHAR' },
        { name: 'rating', data_type: 'DOUBLE' },
      ],
    },
    keys: {
      author: { primaryKey: ['authorid'] },
      paper: { primaryKey: ['paperid'], foreignKeys: [fk('venueid', 'venue')] },
      venue: { primaryKey: ['venueid'] },
      writes: { foreignKeys: [fk('paperid', 'paper'), fk('authorid', 'author')] },
      restaurant: { primaryKey: ['id'] },
    },
  };
}

/** Staff and their managers: a set to compare with (`older than every manager`), as a table and as a value of `job`. */
export function staffSchema(): LinkSchema {
  return {
    streaming: false,
    values: { employees: { job: ['engineer', 'manager', 'clerk'] } },
    tables: {
      employees: [
        { name: 'employee_id', data_type: 'INTEGER' },
        { name: 'name', data_type: 'VARCHAR' },
        { name: 'job', data_type: 'VARCHAR' },
        { name: 'age', data_type: 'INTEGER' },
        { name: 'salary', data_type: 'DOUBLE' },
      ],
      directors: [
        { name: 'director_id', data_type: 'INTEGER' },
        { name: 'name', data_type: 'VARCHAR' },
        { name: 'age', data_type: 'INTEGER' },
      ],
    },
  };
}
