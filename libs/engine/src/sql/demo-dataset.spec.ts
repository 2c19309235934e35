import { createHash } from 'node:crypto';
import { DUCKDB_DEMO_TYPES } from '../duckdb/demo-types';
import { POSTGRES_DEMO_TYPES } from '../postgres/demo-data';
import { DEMO_DATASET_VERSION, demoCreateTableSql, demoDataset, demoInsertSql } from './demo-dataset';

describe('demoDataset', () => {
  it('is deterministic', () => {
    const hash = (): string => createHash('sha256').update(JSON.stringify(demoDataset())).digest('hex');
    expect(hash()).toBe(hash());
    expect(DEMO_DATASET_VERSION).toBe(1);
  });

  it('has the four tables with the documented shape', () => {
    const tables = Object.fromEntries(demoDataset().map((t) => [t.name, t]));
    expect(Object.keys(tables)).toEqual(['sensor_readings', 'devices', 'customers', 'orders']);
    expect(tables.sensor_readings?.columns.map((c) => c.name)).toEqual([
      'ts',
      'device_id',
      'temperature',
      'humidity',
      'battery',
    ]);
    expect(tables.devices?.columns.map((c) => c.name)).toEqual(['device_id', 'site', 'model', 'installed_at']);
    expect(tables.orders?.columns.map((c) => c.name)).toEqual([
      'order_id',
      'customer_id',
      'product',
      'category',
      'quantity',
      'unit_price',
      'ordered_at',
      'status',
    ]);
    expect(tables.customers?.columns.map((c) => c.name)).toEqual(['customer_id', 'name', 'country', 'segment']);
    for (const t of Object.values(tables)) {
      for (const r of t.rows) expect(r).toHaveLength(t.columns.length);
    }
  });

  it('spans two days of readings from five devices, with hot spells above 30 °C', () => {
    const readings = demoDataset()[0]?.rows ?? [];
    expect(readings).toHaveLength(4800);
    const times = readings.map((r) => String(r[0])).sort();
    expect(times[0]?.startsWith('2024-03-01 00:00')).toBe(true);
    expect(times.at(-1)?.startsWith('2024-03-02 23:')).toBe(true);
    expect(new Set(readings.map((r) => r[1])).size).toBe(5);
    const hot = readings.filter((r) => Number(r[2]) > 30);
    expect(new Set(hot.map((r) => r[1]))).toEqual(new Set(['dev-01', 'dev-03', 'dev-05']));
    expect(hot.length).toBeGreaterThan(20);
    for (const r of readings) {
      expect(Number(r[3])).toBeGreaterThanOrEqual(15);
      expect(Number(r[4])).toBeGreaterThanOrEqual(0);
    }
  });

  it('renders DDL per dialect and escapes literals', () => {
    const [readings, , customers] = demoDataset();
    if (!readings || !customers) throw new Error('missing tables');
    expect(demoCreateTableSql(readings, DUCKDB_DEMO_TYPES)).toBe(
      'CREATE TABLE "sensor_readings" ("ts" TIMESTAMP, "device_id" VARCHAR, "temperature" DOUBLE, "humidity" DOUBLE, "battery" INTEGER)',
    );
    expect(demoCreateTableSql(customers, POSTGRES_DEMO_TYPES)).toBe(
      'CREATE TABLE "customers" ("customer_id" INTEGER PRIMARY KEY, "name" TEXT, "country" TEXT, "segment" TEXT)',
    );
    const inserts = demoInsertSql(customers, 16);
    expect(inserts).toHaveLength(3);
    expect(inserts.join('\n')).toContain("'O''Neill ");
    expect(demoInsertSql(readings, 10_000)[0]).toMatch(
      /^INSERT INTO "sensor_readings" \("ts", "device_id", "temperature", "humidity", "battery"\) VALUES \(TIMESTAMP '2024-03-01 00:00:\d\d', 'dev-01', /,
    );
  });
});
