import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { demoCreateTableSql, demoDataset, demoInsertSql } from '../sql/demo-dataset';
import { DUCKDB_DEMO_TYPES } from './demo-types';

/**
 * Creates the demo tables and loads the demo rows on an open read-write connection, in one
 * transaction. Used by {@link ensureDemoDatabase} and, for `:memory:` targets, as their setup.
 */
export async function loadDemoData(connection: DuckDBConnection): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const table of demoDataset()) {
      await connection.run(demoCreateTableSql(table, DUCKDB_DEMO_TYPES));
      for (const insert of demoInsertSql(table)) await connection.run(insert);
    }
    await connection.run('COMMIT');
  } catch (err) {
    await connection.run('ROLLBACK').catch(() => {
      // The load error is what matters; a failed rollback adds nothing to it.
    });
    throw err;
  }
}

/**
 * Creates the demo DuckDB file at `path` when it does not exist yet, then closes it so read-only
 * targets (other processes included) can open it. An existing file is left as it is.
 *
 * The file is built under a temporary name and renamed into place, so a crash never leaves a
 * half-loaded file that a later run would mistake for the finished one.
 */
export async function ensureDemoDatabase(path: string): Promise<{ created: boolean }> {
  if (path === ':memory:' || path === '') {
    throw new Error('ensureDemoDatabase needs a file path; for :memory: pass loadDemoData as the target setup');
  }
  if (existsSync(path)) return { created: false };

  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const instance = await DuckDBInstance.create(tmp);
    try {
      const connection = await instance.connect();
      try {
        await loadDemoData(connection);
        // Fold the WAL into the file so the rename moves one complete file.
        await connection.run('CHECKPOINT');
      } finally {
        connection.closeSync();
      }
    } finally {
      instance.closeSync();
    }
    // Another process may have finished first; its file holds the same rows, so keep it.
    if (existsSync(path)) return { created: false };
    renameSync(tmp, path);
    return { created: true };
  } catch (err) {
    throw new Error(`could not create the demo DuckDB database at ${path}`, { cause: err });
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.wal`, { force: true });
  }
}
