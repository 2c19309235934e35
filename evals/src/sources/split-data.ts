import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import type { SqlSourceConfig } from '@nl2p/config';
import { demoTables, SPLIT_DEMO, writeDuckDbTables, writePostgresTables, type DemoTable } from '@nl2p/engine';

/** Which spelling of the split an item runs over (see `CrossSourceItem.variant`). */
export type SplitVariant = 'split' | 'messy' | 'bad' | 'ambiguous';

/**
 * The demo data split across DuckDB (`shop`: orders, sensor_readings) and PostgreSQL (`crm`:
 * customers, devices) in every variant the cross-source set uses, plus one DuckDB holding all
 * four tables for the gold answers. Both cross-source runners read the same databases.
 */
export interface SplitData {
  /** The sources of one variant, as `SQL_SOURCES` entries. */
  sources(variant: SplitVariant): SqlSourceConfig[];
  /** The same sources as the `SQL_SOURCES` text a deployment sets. */
  sqlSources(variant: SplitVariant): string;
  /** The DuckDB file with all four demo tables (the gold answers run on it). */
  goldPath: string;
  remove(): Promise<void>;
}

/** crm keys as a careless second system spells them: padded text customer ids, upper-case device ids with a space. */
const messy = (t: DemoTable): DemoTable => respell(t, (column, v) => column === 'customer_id' ? String(v).padStart(4, '0') : column === 'device_id' ? `${String(v).toUpperCase()} ` : v); // prettier-ignore
/** crm customer ids no rule reconciles with the orders' (C-prefixed). */
const bad = (t: DemoTable): DemoTable => respell(t, (column, v) => (column === 'customer_id' ? `C-${String(v)}` : v));

function respell(t: DemoTable, value: (column: string | undefined, v: unknown) => unknown): DemoTable {
  return {
    ...t,
    columns: t.columns.map((c) => (c.name === 'customer_id' ? { ...c, type: 'text' as const } : c)),
    rows: t.rows.map((r) => r.map((v, i) => value(t.columns[i]?.name, v))) as DemoTable['rows'],
  };
}

/** Writes every variant's databases (PostgreSQL schemas unique to this run) and the gold DuckDB. */
export async function writeSplitData(postgresUrl: string): Promise<SplitData> {
  const run = `${process.pid}_${Date.now().toString(36)}`;
  const schemas = { split: `crm_${run}`, messy: `messy_${run}`, bad: `bad_${run}` };
  const dir = mkdtempSync(path.join(tmpdir(), 'nl2p-sources-eval-'));
  const file = (name: string) => path.join(dir, `${name}.duckdb`);
  const admin = new Pool({ connectionString: postgresUrl, max: 2 });
  const remove = async () => {
    for (const schema of Object.values(schemas)) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await writeDuckDbTables(file('shop'), demoTables(SPLIT_DEMO.duckdb));
    await writeDuckDbTables(file('warehouse'), demoTables(['customers', 'orders']));
    await writeDuckDbTables(file('gold'), demoTables([...SPLIT_DEMO.duckdb, ...SPLIT_DEMO.postgres]));
    await writePostgresTables(admin, schemas.split, demoTables(SPLIT_DEMO.postgres));
    await writePostgresTables(admin, schemas.messy, demoTables(SPLIT_DEMO.postgres, messy));
    await writePostgresTables(admin, schemas.bad, demoTables(SPLIT_DEMO.postgres, bad));
  } catch (err) {
    await remove();
    throw err;
  }
  const sources = (variant: SplitVariant): SqlSourceConfig[] => {
    const list: SqlSourceConfig[] = [
      { name: 'shop', engine: 'duckdb', path: file('shop') },
      {
        name: 'crm',
        engine: 'postgres',
        url: postgresUrl,
        schema: schemas[variant === 'ambiguous' ? 'split' : variant],
      },
    ];
    // A third source holding customers and orders too: naming either alone is a question.
    if (variant === 'ambiguous') list.push({ name: 'warehouse', engine: 'duckdb', path: file('warehouse') });
    return list;
  };
  return {
    sources,
    sqlSources: (variant) =>
      sources(variant)
        .map((s) => `${s.name}=${s.engine}:${s.engine === 'duckdb' ? s.path : `${s.url}#${s.schema}`}`)
        .join(','),
    goldPath: file('gold'),
    remove,
  };
}
