import { DuckDBInstance } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoDatabase } from '@nl2p/engine';

const CITIES = ['Berlin', 'Paris', 'Madrid', 'Lisbon'];
const DRIVERS = ['Ada', 'Bram', 'Chen', 'Dara', 'Eli'];
const PAYMENTS = ['cash', 'card', 'app'];

/** The demo database, as `npm start` creates it. */
export async function demoDatabase(): Promise<string> {
  const file = path.join(os.tmpdir(), `nl2p-conversations-${randomUUID().slice(0, 8)}.duckdb`);
  await ensureDemoDatabase(file);
  return file;
}

/**
 * A second schema unlike the demo's (a taxi company's trips), written for the conversation suite:
 * deterministic rows, so each conversation's reference query has one answer.
 */
export async function tripsDatabase(): Promise<string> {
  const file = path.join(os.tmpdir(), `nl2p-trips-${randomUUID().slice(0, 8)}.duckdb`);
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    await connection.run(
      'CREATE TABLE trips (trip_id INTEGER, driver VARCHAR, city VARCHAR, distance_km DOUBLE, ' +
        'fare DECIMAL(10,2), tip DECIMAL(10,2), payment_type VARCHAR, started_at TIMESTAMP)',
    );
    const rows: string[] = [];
    for (let i = 1; i <= 60; i++) {
      const distance = ((i * 37) % 230) / 10 + 0.5;
      const fare = (3 + distance * 1.8).toFixed(2);
      const tip = ((i * 13) % 7).toFixed(2);
      const day = String(1 + (i % 28)).padStart(2, '0');
      const hour = String((i * 5) % 24).padStart(2, '0');
      rows.push(
        `(${i}, '${DRIVERS[i % DRIVERS.length]}', '${CITIES[(i * 3) % CITIES.length]}', ${distance}, ${fare}, ${tip}, ` +
          `'${PAYMENTS[i % PAYMENTS.length]}', TIMESTAMP '2024-03-${day} ${hour}:00:00')`,
      );
    }
    await connection.run(`INSERT INTO trips VALUES ${rows.join(', ')}`);
    await connection.run('CHECKPOINT');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return file;
}

/** Rows of each reference query, read once before the services open the file (read-only). */
export async function referenceRows(file: string, queries: readonly string[]): Promise<Map<string, unknown[][]>> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const out = new Map<string, unknown[][]>();
  try {
    for (const sql of queries)
      out.set(
        sql,
        (await connection.runAndReadAll(sql)).getRowsJS().map((r) => r.map(plain)),
      );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return out;
}

export function removeDatabase(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.wal`, { force: true });
}

/** A cell compared across DuckDB's readers: numbers to 6 places, the rest as text. */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Math.round(v * 1e6) / 1e6;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1e6) / 1e6;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}
