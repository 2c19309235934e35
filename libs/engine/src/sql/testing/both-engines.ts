import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Column } from '@nl2p/envelope';
import type { KeyedTables, QueryPlan } from '@nl2p/query-plan';
import { ensureDemoDatabase } from '../../duckdb/demo-data';
import { DuckDbTarget } from '../../duckdb/duckdb-target';
import { ensurePostgresDemo } from '../../postgres/demo-data';
import { PostgresTarget } from '../../postgres/postgres-target';
import { targetProfile } from '../../targets';
import { LIBRARY_SQL } from './library-fixture';

/**
 * The demo data plus the library fixture on a real DuckDB and, when `POSTGRES_URL` is set, a real
 * PostgreSQL (a schema of its own, dropped afterwards), for tests that compare rows across both.
 */
export class BothEngines {
  duck!: DuckDbTarget;
  pg: PostgresTarget | null = null;
  /** Every table's columns, as the DuckDB adapter reads them. */
  tables!: Record<string, Column[]>;
  /** The same tables with the keys the adapter read (declared keys of the library fixture). */
  keyed!: KeyedTables;
  private readonly dir = mkdtempSync(join(tmpdir(), 'nl2p-both-'));
  private readonly schema = `nl2p_both_${process.pid}_${Date.now().toString(36)}`;
  private reader!: DuckDBInstance;
  private admin: Pool | null = null;

  async start(url: string | undefined): Promise<void> {
    const file = join(this.dir, 'demo.duckdb');
    await ensureDemoDatabase(file);
    const writer = await DuckDBInstance.create(file);
    const conn = await writer.connect();
    for (const sql of LIBRARY_SQL) await conn.run(sql);
    conn.closeSync();
    writer.closeSync();
    this.duck = new DuckDbTarget({ path: file, previewRows: 5, queryTimeoutMs: 10_000 });
    this.reader = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const streams = await this.duck.listStreams();
    this.tables = Object.fromEntries(streams.map((s) => [s.name, s.columns]));
    this.keyed = Object.fromEntries(streams.map((s) => [s.name, s]));
    if (!url) return;
    this.admin = new Pool({ connectionString: url, max: 2 });
    await ensurePostgresDemo(this.admin, { schema: this.schema });
    const client = await this.admin.connect();
    try {
      await client.query(`SET search_path TO "${this.schema}"`);
      for (const sql of LIBRARY_SQL) await client.query(sql.replace(/VARCHAR/g, 'text'));
    } finally {
      client.release();
    }
    this.pg = new PostgresTarget({
      connectionString: url,
      schema: this.schema,
      previewRows: 5,
      statementTimeoutMs: 10_000,
    });
  }

  async stop(): Promise<void> {
    await this.duck?.close();
    await this.pg?.close();
    if (this.admin) {
      await this.admin.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
      await this.admin.end();
    }
    this.reader?.closeSync();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async duckRows(sql: string): Promise<string[]> {
    const conn = await this.reader.connect();
    try {
      return rowSet((await conn.runAndReadAll(sql)).getRows());
    } finally {
      conn.closeSync();
    }
  }

  /**
   * The plan compiled for each engine (DuckDB, then PostgreSQL when started), validated there (a
   * refusal throws), with its rows beside those of the hand-written `sql` on the same engine.
   */
  async planBesideSql(
    plan: QueryPlan,
    sql: string,
    tmpId: string,
  ): Promise<{ engine: string; compiled: string; rows: string[]; expected: string[] }[]> {
    const engines = [
      { engine: 'DuckDB', kind: 'duckdb' as const, target: this.duck, rowsOf: (q: string) => this.duckRows(q) },
      ...(this.pg
        ? [{ engine: 'PostgreSQL', kind: 'postgres' as const, target: this.pg, rowsOf: (q: string) => this.pgRows(q) }]
        : []),
    ];
    const out = [];
    for (const e of engines) {
      const compiled = targetProfile(e.kind).compiler.compile(plan, this.tables).sql;
      const verdict = await e.target.validate(compiled, tmpId);
      if (!verdict.ok) throw new Error(`${e.engine} refused ${compiled}: ${verdict.error}`);
      out.push({ engine: e.engine, compiled, rows: await e.rowsOf(compiled), expected: await e.rowsOf(sql) });
    }
    return out;
  }

  async pgRows(sql: string): Promise<string[]> {
    if (!this.admin) throw new Error('no PostgreSQL');
    const client = await this.admin.connect();
    try {
      await client.query(`SET search_path TO "${this.schema}"`);
      // Every value as PostgreSQL prints it, so timestamps and numerics are not reinterpreted.
      const raw = { getTypeParser: () => (v: string) => v };
      const r = await client.query({ text: sql, rowMode: 'array', types: raw });
      return rowSet(r.rows as unknown[][]);
    } finally {
      client.release();
    }
  }
}

/** Output values compared across engines: numbers to 9 significant digits, the rest as text. */
export function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  // DuckDB's timestamps, dates and decimals are objects whose toString is the SQL text.
  const s =
    typeof v === 'string' ? v
    : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v)
    : (v as { toString(): string }).toString(); // prettier-ignore
  if (!/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(s)) return s;
  const n = Number(s);
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(9)));
}

/** Rows as a sorted list of canonical lines (a multiset: order and ties aside). */
export const rowSet = (rows: unknown[][]): string[] => rows.map((r) => r.map(canonical).join(' | ')).sort();
