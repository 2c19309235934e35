import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';

/**
 * A SQLite database copied into a DuckDB file, so the product reads it through the DuckDB target
 * as it would any database: column types from the declared types (SQLite's affinity rules), the
 * declared primary and foreign keys where DuckDB accepts them with the data as it is.
 */

export type DuckType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'DATE' | 'TIMESTAMP';
type Affinity = 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC';

/** SQLite's column affinity from a declared type (sqlite.org/datatype3.html, section 3.1). */
export function affinityOf(declared: string): Affinity {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'TEXT';
  if (t.includes('BLOB') || t.trim() === '') return 'BLOB';
  if (/REAL|FLOA|DOUB/.test(t)) return 'REAL';
  return 'NUMERIC';
}

type Cell = null | number | bigint | string | Uint8Array;

/** What the stored values allow: SQLite keeps any value in any column, whatever it declares. */
function valueKind(values: readonly Cell[]): 'none' | 'BIGINT' | 'DOUBLE' | 'VARCHAR' {
  let numbers = 0;
  let fractions = 0;
  for (const v of values) {
    if (v === null) continue;
    if (typeof v !== 'bigint' && typeof v !== 'number') return 'VARCHAR';
    numbers++;
    if (typeof v === 'number' && !Number.isInteger(v)) fractions++;
  }
  if (!numbers) return 'none';
  return fractions ? 'DOUBLE' : 'BIGINT';
}

/**
 * The DuckDB type a column is staged with: text affinity stays text; other affinities take the
 * declared kind when every stored value fits it and fall back to VARCHAR when one does not. A
 * declared date or time column holding text is staged as text and may become a DATE or TIMESTAMP
 * afterwards ({@link temporalType}).
 */
export function stagedType(declared: string, values: readonly Cell[]): DuckType {
  const affinity = affinityOf(declared);
  if (affinity === 'TEXT') return 'VARCHAR';
  const kind = valueKind(values);
  if (kind === 'VARCHAR') return 'VARCHAR';
  if (kind === 'none') return affinity === 'INTEGER' ? 'BIGINT' : affinity === 'REAL' ? 'DOUBLE' : 'VARCHAR';
  if (affinity === 'REAL') return 'DOUBLE';
  return kind;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface TableSource {
  name: string;
  columns: { name: string; declared: string }[];
  primaryKey: string[];
  foreignKeys: { columns: string[]; table: string; refColumns: string[] }[];
  rows: Cell[][];
}

/** A table's declared columns, keys and rows, read from SQLite (integers as bigint: no precision lost). */
function readTable(sqlite: DatabaseSync, name: string): TableSource {
  const info = sqlite.prepare(`PRAGMA table_info(${quoteIdent(name)})`).all() as {
    name: string;
    type: string;
    pk: number;
  }[];
  const fkRows = sqlite.prepare(`PRAGMA foreign_key_list(${quoteIdent(name)})`).all() as {
    id: number;
    table: string;
    from: string;
    to: string | null;
  }[];
  const byId = new Map<number, TableSource['foreignKeys'][number]>();
  for (const fk of fkRows) {
    const entry = byId.get(fk.id) ?? { columns: [], table: fk.table, refColumns: [] };
    entry.columns.push(fk.from);
    if (fk.to) entry.refColumns.push(fk.to);
    byId.set(fk.id, entry);
  }
  const select = sqlite.prepare(`SELECT * FROM ${quoteIdent(name)}`);
  select.setReadBigInts(true);
  select.setReturnArrays(true);
  return {
    name,
    columns: info.map((c) => ({ name: c.name, declared: c.type })),
    primaryKey: info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name),
    foreignKeys: [...byId.values()],
    rows: select.all() as unknown as Cell[][],
  };
}

function appendCell(appender: DuckDBAppender, type: DuckType, v: Cell): void {
  if (v === null) appender.appendNull();
  else if (type === 'BIGINT') appender.appendBigInt(BigInt(v as bigint | number));
  else if (type === 'DOUBLE') appender.appendDouble(Number(v));
  else appender.appendVarchar(v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : String(v));
}

/**
 * A declared date/time column staged as text becomes DATE when every value is a plain
 * `YYYY-MM-DD`, TIMESTAMP when every value reads as one; else it stays text (Spider has dates such
 * as `08/30/2015`, which gold SQL compares as text).
 */
async function temporalType(c: DuckDBConnection, stage: string, column: string): Promise<DuckType | null> {
  const col = quoteIdent(column);
  const reader = await c.runAndReadAll(
    `SELECT count(${col}) AS n,
       count(*) FILTER (WHERE ${col} IS NOT NULL AND (NOT regexp_full_match(${col}, '\\d{4}-\\d{2}-\\d{2}') OR try_cast(${col} AS DATE) IS NULL)) AS not_date,
       count(*) FILTER (WHERE ${col} IS NOT NULL AND (NOT regexp_matches(${col}, '^\\d{4}-\\d{2}-\\d{2}') OR try_cast(${col} AS TIMESTAMP) IS NULL)) AS not_ts
     FROM ${quoteIdent(stage)}`,
  );
  const [n, notDate, notTs] = (reader.getRowsJS()[0] ?? []).map(Number);
  if (!n) return null;
  if (notDate === 0) return 'DATE';
  return notTs === 0 ? 'TIMESTAMP' : null;
}

/** How a conversion went: tables, rows, and the keys DuckDB refused (with the data as it is). */
export interface SqliteLoad {
  tables: number;
  rows: number;
  droppedKeys: string[];
}

/** Referenced tables first, so a foreign key finds its target already created. */
function creationOrder(tables: readonly TableSource[]): TableSource[] {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const done = new Set<string>();
  const out: TableSource[] = [];
  const visit = (t: TableSource, seen: Set<string>) => {
    const key = t.name.toLowerCase();
    if (done.has(key) || seen.has(key)) return;
    seen.add(key);
    for (const fk of t.foreignKeys) {
      const target = byName.get(fk.table.toLowerCase());
      if (target) visit(target, seen);
    }
    done.add(key);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

/** The columns' final types: staged types, with declared date/time text turned temporal when it reads so. */
async function finalTypes(c: DuckDBConnection, t: TableSource, stage: string): Promise<DuckType[]> {
  const types: DuckType[] = [];
  for (const [k, col] of t.columns.entries()) {
    const staged = stagedType(
      col.declared,
      t.rows.map((r) => r[k] ?? null),
    );
    const temporal =
      staged === 'VARCHAR' && affinityOf(col.declared) === 'NUMERIC' && /DATE|TIME/i.test(col.declared)
        ? await temporalType(c, stage, col.name)
        : null;
    types.push(temporal ?? staged);
  }
  return types;
}

async function stageTable(c: DuckDBConnection, t: TableSource, stage: string): Promise<void> {
  const staged = t.columns.map((col, k) =>
    stagedType(
      col.declared,
      t.rows.map((r) => r[k] ?? null),
    ),
  );
  await c.run(
    `CREATE TABLE ${quoteIdent(stage)} (${t.columns.map((col, k) => `${quoteIdent(col.name)} ${staged[k]}`).join(', ')})`,
  );
  const appender = await c.createAppender(stage);
  for (const row of t.rows) {
    staged.forEach((type, k) => appendCell(appender, type, row[k] ?? null));
    appender.endRow();
  }
  appender.closeSync();
}

/** Whether every non-NULL value of the foreign key's columns names a row of the target (DuckDB checks it on insert). */
async function foreignKeyHolds(c: DuckDBConnection, stage: string, cols: string[], target: string, refs: string[]) {
  const on = cols.map((col, i) => `t.${quoteIdent(refs[i] ?? '')} = s.${quoteIdent(col)}`).join(' AND ');
  const present = cols.map((col) => `s.${quoteIdent(col)} IS NOT NULL`).join(' AND ');
  try {
    const reader = await c.runAndReadAll(
      `SELECT count(*) FROM ${quoteIdent(stage)} s WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${quoteIdent(target)} t WHERE ${on})`,
    );
    return Number(reader.getRowsJS()[0]?.[0]) === 0;
  } catch {
    return false;
  }
}

/**
 * The key clauses to try, most first: the primary key and every foreign key the data satisfies,
 * then the primary key alone, then none. DuckDB references a primary key only (here), so a key
 * pointing at other columns, or at a table whose primary key was dropped, is left out.
 */
async function keyClauses(
  c: DuckDBConnection,
  t: TableSource,
  stage: string,
  created: ReadonlyMap<string, { name: string; primaryKey: string[] }>,
): Promise<{ attempts: string[][]; declared: number }> {
  const real = (name: string) => t.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.name ?? name;
  const pk = t.primaryKey.length ? [`PRIMARY KEY (${t.primaryKey.map(quoteIdent).join(', ')})`] : [];
  const fks: string[] = [];
  for (const fk of t.foreignKeys) {
    const target = created.get(fk.table.toLowerCase());
    const targetPk = target?.primaryKey ?? [];
    const refs = fk.refColumns.length ? fk.refColumns : targetPk;
    const sameKey =
      refs.length === targetPk.length && refs.every((r, i) => r.toLowerCase() === targetPk[i]?.toLowerCase());
    const cols = fk.columns.map(real);
    if (!target || !targetPk.length || !sameKey || !(await foreignKeyHolds(c, stage, cols, target.name, targetPk)))
      continue;
    fks.push(
      `FOREIGN KEY (${cols.map(quoteIdent).join(', ')}) REFERENCES ${quoteIdent(target.name)} (${targetPk.map(quoteIdent).join(', ')})`,
    );
  }
  return { attempts: [[...pk, ...fks], pk, []], declared: pk.length + t.foreignKeys.length };
}

/**
 * Creates one table from its stage, with as many declared keys as DuckDB accepts over the data
 * (a primary key Spider's data repeats, a foreign key to a missing row, are dropped and said).
 * Returns the primary key kept, for the tables that reference this one.
 */
async function createTable(
  c: DuckDBConnection,
  t: TableSource,
  created: ReadonlyMap<string, { name: string; primaryKey: string[] }>,
  droppedKeys: string[],
): Promise<string[]> {
  const stage = `__stage_${t.name}`;
  await stageTable(c, t, stage);
  const types = await finalTypes(c, t, stage);
  const columns = t.columns.map((col, k) => `${quoteIdent(col.name)} ${types[k]}`);
  const select = t.columns.map((col, k) => `CAST(${quoteIdent(col.name)} AS ${types[k]})`).join(', ');
  const { attempts, declared } = await keyClauses(c, t, stage, created);
  let lastError: unknown = null;
  try {
    for (const keys of attempts) {
      try {
        await c.run(`CREATE TABLE ${quoteIdent(t.name)} (${[...columns, ...keys].join(', ')})`);
        await c.run(`INSERT INTO ${quoteIdent(t.name)} SELECT ${select} FROM ${quoteIdent(stage)}`);
        if (keys.length < declared) droppedKeys.push(`${t.name}: ${declared - keys.length} of ${declared} keys`);
        return keys.some((k) => k.startsWith('PRIMARY KEY')) ? t.primaryKey : [];
      } catch (err) {
        lastError = err;
        await c.run(`DROP TABLE IF EXISTS ${quoteIdent(t.name)}`);
      }
    }
  } finally {
    await c.run(`DROP TABLE IF EXISTS ${quoteIdent(stage)}`);
  }
  throw new Error(`table ${t.name} could not be created`, { cause: lastError });
}

/** Copies every table of the SQLite file into a new DuckDB database through `c`. */
export async function copySqliteInto(c: DuckDBConnection, sqliteFile: string): Promise<SqliteLoad> {
  const sqlite = new DatabaseSync(sqliteFile, { readOnly: true });
  try {
    const names = (
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as { name: string }[]
    ).map((r) => r.name);
    const tables = creationOrder(names.map((n) => readTable(sqlite, n)));
    const created = new Map<string, { name: string; primaryKey: string[] }>();
    const droppedKeys: string[] = [];
    let rows = 0;
    for (const t of tables) {
      created.set(t.name.toLowerCase(), { name: t.name, primaryKey: await createTable(c, t, created, droppedKeys) });
      rows += t.rows.length;
    }
    return { tables: tables.length, rows, droppedKeys };
  } finally {
    sqlite.close();
  }
}

/**
 * `<dir>/<name>.duckdb` converted from the SQLite file, reused when it exists (the SQLite files do
 * not change; `version` in the name retires old conversions). Written under a temporary name and
 * renamed, so an interrupted conversion leaves nothing that looks finished.
 */
export async function cachedDuckDb(
  sqliteFile: string,
  dir: string,
  name: string,
  version: number,
): Promise<{ path: string; load: SqliteLoad | null }> {
  const file = path.join(dir, `${name}.v${version}.duckdb`);
  if (existsSync(file)) return { path: file, load: null };
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  rmSync(`${partial}.wal`, { force: true });
  const instance = await DuckDBInstance.create(partial);
  let load: SqliteLoad;
  try {
    const connection = await instance.connect();
    try {
      load = await copySqliteInto(connection, sqliteFile);
      await connection.run('CHECKPOINT');
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  renameSync(partial, file);
  return { path: file, load };
}
