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
