import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The statements of a SQL script: split on `;` outside quoted text, with `--` and `/* *\/`
 * comments dropped (a comment may hold a quote or a `;`). Empty statements are left out.
 */
export function splitStatements(script: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    if (quote) {
      current += ch;
      if (ch === quote) quote = null; // a doubled quote closes and reopens: the same text
      continue;
    }
    if (ch === '-' && script[i + 1] === '-') {
      while (i < script.length && script[i] !== '\n') i++;
      current += '\n';
      continue;
    }
    if (ch === '/' && script[i + 1] === '*') {
      const close = script.indexOf('*/', i + 2);
      i = close < 0 ? script.length : close + 1;
      current += ' ';
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Applies `fn` to the parts of `sql` outside single- and double-quoted text. */
export function mapOutsideQuotes(sql: string, fn: (code: string) => string): string {
  let out = '';
  let code = '';
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      out += ch;
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      out += fn(code) + ch;
      code = '';
      quote = ch;
    } else {
      code += ch;
    }
  }
  return out + fn(code);
}

/** Why a statement of a PostgreSQL dump was changed before DuckDB ran it. */
export type Adaptation = 'schema folded into main' | 'serial type' | 'create schema dropped';

/**
 * A PostgreSQL dump statement as DuckDB can run it, changing only what DuckDB refuses:
 * - tables of a named schema (`public.t`, `consumer_div.t`) are created in DuckDB's `main`, the
 *   schema the DuckDB target lists (PostgreSQL's `public` is DuckDB's `main`); their
 *   `CREATE SCHEMA` is dropped (the loader adds views under the old names for gold SQL);
 * - `serial`, `bigserial`, `smallserial` become the integer type they stand for (dumps insert the
 *   ids themselves).
 * `to_char` is not rewritten: {@link loadPostgresDump} provides it while loading.
 */
export function adaptStatement(
  statement: string,
  schemas: ReadonlySet<string>,
): { sql: string | null; adaptations: Adaptation[]; schema?: string } {
  const createSchema = /^CREATE\s+SCHEMA\s+(?:IF\s+NOT\s+EXISTS\s+)?("?)([A-Za-z_][\w$]*)\1\s*$/i.exec(statement);
  if (createSchema) return { sql: null, adaptations: ['create schema dropped'], schema: createSchema[2] };
  const adaptations = new Set<Adaptation>();
  const names = [...schemas].map((s) => s.replace(/[^\w$]/g, ''));
  const qualifier = new RegExp(`\\b(?:${names.join('|')})\\.(?=[A-Za-z_"])`, 'gi');
  const serial = /\b(small|big)?serial\b/gi;
  const sql = mapOutsideQuotes(statement, (code) =>
    code
      .replace(qualifier, () => {
        adaptations.add('schema folded into main');
        return '';
      })
      .replace(serial, (_m, size: string | undefined) => {
        adaptations.add('serial type');
        return size ? `${size.toLowerCase()}int` : 'integer';
      }),
  );
  return { sql, adaptations: [...adaptations] };
}

/**
 * PostgreSQL's `to_char` for what the dumps use, as a temporary macro for the load (never stored
 * in the database, so gold SQL cannot use it): the template patterns `YYYY MM DD HH24 MI SS Mon`,
 * `Month` alone (blank-padded to 9 like PostgreSQL), and `%i` / `%s` (minutes, seconds), which
 * one dump writes in MySQL style.
 */
export const TO_CHAR_MACRO = `CREATE OR REPLACE TEMP MACRO to_char(v, fmt) AS
  CASE WHEN fmt = 'Month' THEN rpad(strftime(v, '%B'), 9, ' ')
  ELSE strftime(v, replace(replace(replace(replace(replace(replace(replace(replace(replace(
    fmt, 'HH24', '%H'), 'YYYY', '%Y'), 'Mon', '%b'), 'MM', '%m'), 'DD', '%d'), 'MI', '%M'), 'SS', '%S'), '%i', '%M'), '%s', '%S'))
  END`;

const REFERENTIAL_ACTIONS = String.raw`(?:\s+ON\s+(?:DELETE|UPDATE)\s+(?:CASCADE|RESTRICT|NO\s+ACTION|SET\s+NULL|SET\s+DEFAULT))*`;
const TABLE_FOREIGN_KEY = new RegExp(
  String.raw`,\s*(?:CONSTRAINT\s+[\w"]+\s+)?FOREIGN\s+KEY\s*\([^)]*\)\s*REFERENCES\s+[\w."]+\s*(?:\([^)]*\))?` +
    REFERENTIAL_ACTIONS,
  'gi',
);
const COLUMN_REFERENCES = new RegExp(String.raw`\s+REFERENCES\s+[\w."]+\s*(?:\([^)]*\))?` + REFERENTIAL_ACTIONS, 'gi');

/**
 * A CREATE TABLE without its foreign keys: for the constraints DuckDB refuses (it requires the
 * same type on both sides, PostgreSQL only comparable ones). Rows and columns are unchanged.
 */
export function withoutForeignKeys(sql: string): string {
  return mapOutsideQuotes(sql, (code) => code.replace(TABLE_FOREIGN_KEY, '').replace(COLUMN_REFERENCES, ''));
}

export interface DumpLoad {
  statements: number;
  /** Statements changed before they ran, per reason. */
  adapted: Partial<Record<Adaptation | 'to_char emulated' | 'foreign key dropped', number>>;
  /** Statements DuckDB refused even after adaptation: left out, with DuckDB's first error line. */
  skipped: { statement: string; error: string }[];
  /** Schemas folded into main (views under their names are created for gold SQL). */
  schemas: string[];
}

/**
 * Runs a PostgreSQL dump on a read-write DuckDB connection, statement by statement: adapted as
 * {@link adaptStatement} says, and a statement DuckDB still refuses is skipped and reported.
 * Afterwards each folded schema gets views of the tables under its name, so gold SQL written for
 * PostgreSQL (`consumer_div.users`) runs unchanged; the DuckDB target lists only `main`, so the
 * product sees each table once.
 */
export async function loadPostgresDump(connection: DuckDBConnection, script: string): Promise<DumpLoad> {
  const statements = splitStatements(script);
  const schemas = new Set<string>(['public']);
  for (const s of statements) {
    const name = adaptStatement(s, schemas).schema;
    if (name) schemas.add(name);
  }
  const load: DumpLoad = { statements: statements.length, adapted: {}, skipped: [], schemas: [] };
  const count = (reason: keyof DumpLoad['adapted']) => (load.adapted[reason] = (load.adapted[reason] ?? 0) + 1);
  const used = new Set<string>();
  await connection.run(TO_CHAR_MACRO);
  for (const statement of statements) {
    const { sql, adaptations, schema } = adaptStatement(statement, schemas);
    adaptations.forEach(count);
    if (schema) used.add(schema);
    if (adaptations.includes('schema folded into main')) {
      for (const s of schemas) if (new RegExp(`\\b${s}\\.`, 'i').test(statement)) used.add(s);
    }
    if (sql === null) continue;
    if (/\bto_char\s*\(/i.test(sql)) count('to_char emulated');
    try {
      await connection.run(sql);
    } catch (err) {
      const error = firstLine(err);
      const retry = /foreign key/i.test(error) ? withoutForeignKeys(sql) : sql;
      if (retry === sql) {
        load.skipped.push({ statement: statement.slice(0, 200), error });
        continue;
      }
      try {
        await connection.run(retry);
        count('foreign key dropped');
      } catch (again) {
        load.skipped.push({ statement: statement.slice(0, 200), error: firstLine(again) });
      }
    }
  }
  await connection.run('DROP MACRO IF EXISTS temp.to_char');
  const tables = (
    await connection.runAndReadAll(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_catalog = current_database()`,
    )
  )
    .getRowsJS()
    .map((r) => r[0])
    .filter((name): name is string => typeof name === 'string');
  for (const schema of [...used].filter((s) => s.toLowerCase() !== 'main')) {
    await connection.run(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
    for (const t of tables) {
      await connection.run(`CREATE VIEW ${quote(schema)}.${quote(t)} AS SELECT * FROM main.${quote(t)}`);
    }
    load.schemas.push(schema);
  }
  return load;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The first line of a DuckDB error, which names what went wrong. */
export function firstLine(err: unknown): string {
  const message =
    err && typeof err === 'object' && 'message' in err && typeof err.message === 'string' ? err.message : String(err);
  return message.split('\n')[0] ?? message;
}
