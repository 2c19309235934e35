import type { Pool } from 'pg';
import { demoCreateTableSql, demoDataset, demoInsertSql, type DemoTypeNames } from '../sql/demo-dataset';

/** PostgreSQL's spelling of the demo dataset's column types. */
export const POSTGRES_DEMO_TYPES: DemoTypeNames = {
  integer: 'INTEGER',
  double: 'DOUBLE PRECISION',
  text: 'TEXT',
  timestamp: 'TIMESTAMP',
  decimal: 'DECIMAL(10,2)',
};

/** Serialises concurrent loaders (parallel test files, replicas starting together). */
const DEMO_LOCK_KEY = 'nl2p-demo-data';

/**
 * Loads the demo dataset (the same rows as the DuckDB demo file) into `schema` unless its four
 * tables are already there. Runs in one transaction under an advisory lock, so concurrent callers
 * neither half-load nor double-load it. A schema holding only some of the tables is an error:
 * those are someone else's tables, not ours to replace.
 */
export async function ensurePostgresDemo(pool: Pool, options: { schema?: string } = {}): Promise<{ created: boolean }> {
  const schema = options.schema ?? 'public';
  const tables = demoDataset();
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [DEMO_LOCK_KEY]);
    const existing = await client.query<{ tablename: string }>(
      'SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = $1 AND tablename = ANY($2::text[])',
      [schema, tables.map((t) => t.name)],
    );
    if (existing.rows.length === tables.length) {
      await client.query('COMMIT');
      return { created: false };
    }
    if (existing.rows.length > 0) {
      throw new Error(
        `schema ${schema} already holds ${existing.rows.map((r) => r.tablename).join(', ')} but not the whole demo dataset; refusing to mix demo tables into it`,
      );
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    // Unqualified names in the shared DDL land in the demo schema.
    await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    for (const table of tables) {
      await client.query(demoCreateTableSql(table, POSTGRES_DEMO_TYPES));
      for (const insert of demoInsertSql(table)) await client.query(insert);
    }
    await client.query('COMMIT');
    return { created: true };
  } catch (err) {
    failed = err instanceof Error ? err : new Error(String(err));
    await client.query('ROLLBACK').catch(() => {
      // The original failure is the one to report.
    });
    throw new Error(`could not load the demo dataset into PostgreSQL schema ${schema}`, { cause: err });
  } finally {
    client.release(failed);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
