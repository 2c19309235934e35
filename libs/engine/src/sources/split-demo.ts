import { DuckDBInstance } from '@duckdb/node-api';
import type { Pool } from 'pg';
import { DUCKDB_DEMO_TYPES } from '../duckdb/demo-types';
import { POSTGRES_DEMO_TYPES } from '../postgres/demo-data';
import { demoCreateTableSql, demoDataset, demoInsertSql, type DemoTable } from '../sql/demo-dataset';

/**
 * The demo data split across two engines, as a deployment with two sources holds it: `orders`
 * and `sensor_readings` in a DuckDB file (the `shop` source), `customers` and `devices` in a
 * PostgreSQL schema (the `crm` source). Questions joining orders to customers, or readings to
 * devices, then need both. The same rows in one database give the gold answers.
 */
export const SPLIT_DEMO = { duckdb: ['orders', 'sensor_readings'], postgres: ['customers', 'devices'] } as const;

/** Tables of the demo, optionally altered (keys respelled to test reconciliation). */
export function demoTables(names: readonly string[], alter?: (t: DemoTable) => DemoTable): DemoTable[] {
  return demoDataset()
    .filter((t) => names.includes(t.name))
    .map((t) => (alter ? alter(t) : t));
}

/** Writes tables into a new DuckDB file (closed afterwards, so sources open it read-only). */
export async function writeDuckDbTables(path: string, tables: DemoTable[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const table of tables) {
      await connection.run(demoCreateTableSql(table, DUCKDB_DEMO_TYPES));
      for (const insert of demoInsertSql(table)) await connection.run(insert);
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Creates `schema` (which must not exist) with the tables in PostgreSQL. */
export async function writePostgresTables(pool: Pool, schema: string, tables: DemoTable[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE SCHEMA "${schema.replace(/"/g, '""')}"`);
    await client.query(`SET LOCAL search_path TO "${schema.replace(/"/g, '""')}"`);
    for (const table of tables) {
      await client.query(demoCreateTableSql(table, POSTGRES_DEMO_TYPES));
      for (const insert of demoInsertSql(table)) await client.query(insert);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
