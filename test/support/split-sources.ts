import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Pool } from 'pg';
import { demoTables, SPLIT_DEMO, writeDuckDbTables, writePostgresTables } from '@nl2p/engine';

/** A question over the split sources: it joins readings (shop) to devices (crm). */
export const SOURCES_REQUEST = 'average temperature per site';
const SOURCES_GOLD =
  'SELECT d.site, avg(r.temperature) FROM sensor_readings r JOIN devices d ON r.device_id = d.device_id GROUP BY d.site ORDER BY d.site';

/** Two SQL sources holding the demo split, for tests that run the services as processes. */
export interface SplitSources {
  /** `SQL_SOURCES` for the services (known before the data is written, so it can go in their env). */
  sqlSources: string;
  /** Which engines hold the two parts (PostgreSQL when `POSTGRES_URL` is set, else a second DuckDB file). */
  engines: string;
  /** Writes both sources and the gold database. */
  write(): Promise<void>;
  /** [site, average temperature] per site, from one database holding all the tables (after `write`). */
  expected(): Promise<[string, number][]>;
  remove(): Promise<void>;
}

/**
 * The demo split across two sources as in the sources integration tests: orders and readings in
 * a DuckDB file (`shop`); customers and devices in PostgreSQL (`crm`) when CI's `POSTGRES_URL` is
 * there, else in a second DuckDB file, so a question still joins across two sources.
 */
export function splitSources(): SplitSources {
  const dir = mkdtempSync(path.join(tmpdir(), 'nl2p-split-sources-'));
  const [shop, crmFile, gold] = ['shop', 'crm', 'gold'].map((n) => path.join(dir, `${n}.duckdb`));
  const url = process.env.POSTGRES_URL;
  const schema = `crm_split_${process.pid}_${Date.now().toString(36)}`;
  const admin = url ? new Pool({ connectionString: url, max: 1 }) : null;
  return {
    sqlSources: `shop=duckdb:${shop},crm=${url ? `postgres:${url}#${schema}` : `duckdb:${crmFile}`}`,
    engines: url ? 'DuckDB+PostgreSQL' : 'DuckDB+DuckDB',
    async write() {
      await writeDuckDbTables(shop, demoTables(SPLIT_DEMO.duckdb));
      await writeDuckDbTables(gold, demoTables([...SPLIT_DEMO.duckdb, ...SPLIT_DEMO.postgres]));
      if (admin) await writePostgresTables(admin, schema, demoTables(SPLIT_DEMO.postgres));
      else await writeDuckDbTables(crmFile, demoTables(SPLIT_DEMO.postgres));
    },
    async expected() {
      return (await readRows(gold, SOURCES_GOLD))
        .map(([site, avg]) => [String(site), Number(avg)] as [string, number])
        .sort((a, b) => a[0].localeCompare(b[0]));
    },
    async remove() {
      await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin?.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function readRows(file: string, sql: string): Promise<unknown[][]> {
  const db = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowsJS();
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/**
 * Whether a finished multi-source turn is the right answer: idle, two parts (one per source), the
 * combine, every site with its gold average, and an answer in words. Null when it is; else why not.
 */
export function wrongSourcesAnswer(v: any, expected: readonly [string, number][]): string | null {
  if (v.status !== 'idle' || v.interrupt) return `ended ${v.status} ${JSON.stringify(v.interrupt)}`;
  const parts = (v.sources_run?.parts ?? []) as { source: string }[];
  if (parts.map((p) => p.source).sort().join(',') !== 'crm,shop') return `parts ${JSON.stringify(parts.map((p) => p.source))}`; // prettier-ignore
  if (!v.sources_run?.combine_sql) return 'no combine step';
  const rows = ((v.preview?.rows ?? []) as [string, number][]).slice().sort((a, b) => a[0].localeCompare(b[0]));
  const right =
    rows.length === expected.length &&
    rows.every(
      ([site, avg], i) => site === expected[i]?.[0] && Math.abs(Number(avg) - (expected[i]?.[1] ?? NaN)) < 1e-6,
    );
  if (!right) return `rows ${JSON.stringify(rows)} instead of ${JSON.stringify(expected)}`;
  if (v.answer?.kind !== 'message' || !v.answer.text) return `no answer in words: ${JSON.stringify(v.answer)}`;
  return null;
}
