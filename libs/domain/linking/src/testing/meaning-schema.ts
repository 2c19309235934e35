import type { LinkSchema } from '../types';

/** A schema unlike the demo's: its names say things the requests say in other words. */
export function meaningSchema(): LinkSchema {
  return {
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
}
