import { Pool, type PoolClient, type QueryArrayConfig, type QueryResult } from 'pg';
import type { Column, TargetKind } from '@nl2p/envelope';
import { foldOverloads, withSyntaxFunctions, type FunctionOverload } from '../sql/sql-functions';
import { QueryTimeLimitError, TargetQueryError, type Catalog, type StreamInfo, type ValidationResult } from '../port';
import { readColumnValues } from '../sql/column-values';
import { withComments } from '../sql/table-comments';
import { withKeys } from '../sql/table-keys';
import { SqlDatabaseTarget } from '../sql/sql-database-target';
import { asPgError, classifyPgError, formatPgError, isPgVerdict, PG_QUERY_CANCELED } from './classify';
import { POSTGRES_FUNCTION_NAMES } from './function-names';
import { checkPostgresSelect } from './postgres-parser';
import { POSTGRES_SYNTAX_RULES, postgresDialectNotes } from './postgres-catalog';
import { previewTypes } from './pg-values';

export interface PostgresTargetOptions {
  /** `postgres://user@host:port/db`. Use a role that can only read the target schema. */
  connectionString: string;
  /** The schema whose tables and views are the streams. Default `public`. */
  schema?: string;
  /** Rows a preview returns (one more is read to tell whether there are more). Default 20. */
  previewRows?: number;
  /** `statement_timeout` for every query this target runs. Default 5000. */
  statementTimeoutMs?: number;
  /** Pool size. Default 4. */
  maxConnections?: number;
}

/** The extended protocol refuses a text with more than one statement: the database-side twin of the parser check. */
type ExtendedQuery = QueryArrayConfig & { queryMode: 'extended' };

const EXPLAIN_PREFIX = 'EXPLAIN ';

/**
 * {@link EngineTarget} for PostgreSQL over a `pg` pool (ARCHITECTURE §7): the tables and views of
 * one schema are the streams, validation is `EXPLAIN`, and `preview` returns the first rows.
 *
 * Every query runs inside `BEGIN READ ONLY` with `SET LOCAL statement_timeout`, over the extended
 * protocol (one statement per text), and is rolled back. Before that, {@link checkPostgresSelect}
 * (PostgreSQL's own parser, run locally) refuses anything but one read-only SELECT; the session
 * reads string literals as that parser does (`standard_conforming_strings` on). A read-only
 * transaction does not stop every side effect a function can have (`pg_terminate_backend`, a user
 * function that writes through dblink), so connect as a role that may only SELECT the target schema.
 */
export class PostgresTarget extends SqlDatabaseTarget {
  readonly kind: TargetKind = 'postgres';
  protected readonly label = 'PostgreSQL';
  protected readonly guard = checkPostgresSelect;

  private readonly pool: Pool;
  private readonly schema: string;
  protected readonly previewRows: number;
  private readonly statementTimeoutMs: number;

  constructor(options: PostgresTargetOptions) {
    super();
    this.schema = options.schema ?? 'public';
    this.previewRows = options.previewRows ?? 20;
    this.statementTimeoutMs = options.statementTimeoutMs ?? 5_000;
    if (!Number.isInteger(this.previewRows) || this.previewRows < 1)
      throw new Error(`previewRows must be a positive integer, got ${this.previewRows}`);
    if (!Number.isInteger(this.statementTimeoutMs) || this.statementTimeoutMs < 1) {
      throw new Error(`statementTimeoutMs must be a positive integer, got ${this.statementTimeoutMs}`);
    }
    this.pool = new Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 4,
      connectionTimeoutMillis: 10_000,
      // A backstop for a server that stops answering: the statement timeout never reaches it.
      query_timeout: this.statementTimeoutMs + 10_000,
    });
    // An idle client that loses its connection emits on the pool; without a listener that would
    // crash the process. The next checkout simply gets a fresh connection.
    this.pool.on('error', () => undefined);
  }

  /** Tables, views and materialized views of the schema the role may SELECT, with their columns. */
  async listStreams(): Promise<StreamInfo[]> {
    return this.session(async (client) => {
      const keyed = withKeys(
        await this.readTables(client, null),
        (await client.query<Record<string, unknown>>(KEYS_SQL, [this.schema])).rows,
      );
      return withComments(keyed, (await client.query<Record<string, unknown>>(COMMENTS_SQL, [this.schema])).rows);
    });
  }

  /**
   * One table or view. An exact name wins; otherwise the name PostgreSQL would resolve an unquoted
   * identifier to (lower case) is tried.
   */
  async describeStream(name: string): Promise<StreamInfo | null> {
    const tables = await this.session((client) => this.readTables(client, name));
    return tables.find((t) => t.name === name) ?? tables.find((t) => t.name === name.toLowerCase()) ?? null;
  }

  /** A curated subset of `pg_proc` (overloads folded), the syntax rules and §7 notes. */
  async loadCatalog(): Promise<Catalog> {
    const result = await this.session((client) =>
      client.query<{
        name: string;
        kind: string;
        variadic: boolean;
        arg_types: string[];
        arg_names: string[] | null;
        arg_modes: string[] | null;
        ndefaults: number;
        description: string | null;
      }>(
        `SELECT p.proname AS name, p.prokind AS kind, p.provariadic <> 0 AS variadic,
                ARRAY(SELECT format_type(a.t, NULL) FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, i) ORDER BY a.i) AS arg_types,
                p.proargnames AS arg_names, p.proargmodes::text[] AS arg_modes, p.pronargdefaults AS ndefaults,
                obj_description(p.oid, 'pg_proc') AS description
         FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'pg_catalog' AND p.proname = ANY($1::text[]) AND has_function_privilege(p.oid, 'EXECUTE')
         ORDER BY p.proname, p.pronargs`,
        [[...POSTGRES_FUNCTION_NAMES]],
      ),
    );
    const overloads: FunctionOverload[] = result.rows.flatMap((r) => {
      const params = r.arg_types.map((type, i) => {
        // Names only when they line up with the input arguments (no OUT parameters mixed in).
        const name = r.arg_modes === null ? r.arg_names?.[i] : undefined;
        if (name && name.trim() !== '') return name;
        const plain = type.replace(/^"(.*)"$/, '$1');
        // A VARIADIC parameter is declared as an array but called with its elements.
        return r.variadic && i === r.arg_types.length - 1 ? plain.replace(/\[\]$/, '') : plain;
      });
      const base: FunctionOverload = {
        name: r.name,
        kind: r.kind === 'a' ? 'aggregate' : r.kind === 'w' ? 'window' : 'scalar',
        params,
        variadic: r.variadic,
        description: r.description ?? '',
      };
      // Arguments with defaults may be left out: one overload per shorter arity.
      const shorter = Array.from({ length: Math.min(r.ndefaults, params.length) }, (_, k) => ({
        ...base,
        params: params.slice(0, params.length - k - 1),
      }));
      return [base, ...shorter];
    });
    const values = await readColumnValues(await this.listStreams(), async (sql) =>
      (await this.session((client) => client.query<Record<string, unknown>>(sql))).rows.map(
        (row) => Object.values(row)[0],
      ),
    );
    return {
      dialect: 'postgres',
      values,
      functions: withSyntaxFunctions(foldOverloads(preferCommonOverloads(overloads), POSTGRES_FUNCTION_NAMES)),
      syntax: POSTGRES_SYNTAX_RULES.map((r) => ({ ...r, notes: [...r.notes] })),
      dialectNotes: postgresDialectNotes({
        schema: this.schema,
        statementTimeoutMs: this.statementTimeoutMs,
        previewRows: this.previewRows,
      }),
    };
  }

  /** PostgreSQL's verdicts with its message, SQLSTATE and hint; server trouble (timeout, connection) thrown. */
  protected planRejection(err: unknown, tmpId: string): ValidationResult {
    const pgError = asPgError(err);
    if (pgError && pgError.code !== PG_QUERY_CANCELED && isPgVerdict(pgError.code)) {
      return { ok: false, tmpId, kind: classifyPgError(pgError), error: formatPgError(pgError, EXPLAIN_PREFIX.length) };
    }
    throw this.failure('validating', err);
  }

  protected override explainFailure(err: unknown): unknown {
    return this.failure('explaining', err);
  }

  /** In a read-only transaction under the statement timeout. */
  protected async readRows(previewSql: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    try {
      const result = await this.session((client) => client.query(extended(previewSql, previewTypes)));
      return { columns: result.fields.map((f) => f.name), rows: result.rows as unknown[][] };
    } catch (err) {
      throw this.failure('running the preview', err);
    }
  }

  /** Ends the pool; the target is unusable afterwards. */
  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }

  protected async planOf(sql: string): Promise<string> {
    const result: QueryResult<unknown[]> = await this.session((client) =>
      client.query(extended(`${EXPLAIN_PREFIX}${sql}`)),
    );
    return result.rows.map((row) => (typeof row[0] === 'string' ? row[0] : '')).join('\n');
  }

  /** A time-limit failure gets the same wording as DuckDB's; other server errors keep PostgreSQL's. */
  private failure(what: string, err: unknown): TargetQueryError {
    if (err instanceof TargetQueryError) return err;
    const pgError = asPgError(err);
    if (pgError?.code === PG_QUERY_CANCELED) {
      return new QueryTimeLimitError(`query exceeded the ${this.statementTimeoutMs} ms time limit`, { cause: err });
    }
    const message = pgError ? formatPgError(pgError) : err instanceof Error ? err.message : String(err);
    return new TargetQueryError(`PostgreSQL failed while ${what}: ${message}`, { cause: err });
  }

  /**
   * Runs `work` in a read-only transaction with the statement timeout, the target schema first on
   * the search path and UTC/ISO output settings, then rolls back whatever happened.
   */
  private async session<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN READ ONLY');
      // SET cannot take parameters; both values are validated (integer) or quoted here.
      await client.query(
        `SET LOCAL statement_timeout = ${this.statementTimeoutMs}; SET LOCAL search_path TO ${quoteIdent(this.schema)};` +
          ` SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL IntervalStyle = 'postgres';` +
          // The guard's parser reads '\' as a whole string; so must the server, whatever its default.
          ' SET LOCAL standard_conforming_strings = on',
      );
      return await work(client);
    } catch (err) {
      // A server error leaves the connection healthy (the rollback below resets it); anything
      // else (socket, client timeout) may not, so that client is discarded rather than reused.
      if (!asPgError(err)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      if (!broken) {
        await client.query('ROLLBACK').catch((err: unknown) => {
          broken = err instanceof Error ? err : new Error(String(err));
        });
      }
      client.release(broken);
    }
  }

  private async readTables(client: PoolClient, name: string | null): Promise<StreamInfo[]> {
    const result = await client.query<ColumnRow>(
      `${COLUMNS_SQL}
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f') AND has_table_privilege(c.oid, 'SELECT')
         AND ($2::text IS NULL OR c.relname IN ($2, lower($2)))
       ORDER BY c.relname, a.attnum`,
      [this.schema, name],
    );
    const byTable = new Map<string, StreamInfo>();
    const composites = new Map<number, Column[]>();
    for (const row of result.rows) {
      const info = byTable.get(row.owner) ?? { name: row.owner, columns: [] };
      byTable.set(row.owner, info);
      info.columns.push(await toColumn(client, row, composites, 0));
    }
    return [...byTable.values()];
  }
}

/** Comments on the schema's relations (column_name null) and their columns (`COMMENT ON …`). */
const COMMENTS_SQL = `SELECT c.relname::text AS table_name, a.attname::text AS column_name, d.description AS comment
  FROM pg_catalog.pg_description d
  JOIN pg_catalog.pg_class c ON c.oid = d.objoid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.objsubid AND d.objsubid > 0
  WHERE d.classoid = 'pg_catalog.pg_class'::regclass AND n.nspname = $1 AND (d.objsubid = 0 OR a.attnum IS NOT NULL)`;

/**
 * Declared primary and foreign keys of the schema's tables, from `pg_constraint`: one row per key,
 * its columns and (foreign keys) the table and columns it references, in key column order. Names
 * are cast to text: node-pg parses `text[]` into arrays, but hands `name[]` back as its literal.
 */
const KEYS_SQL = `SELECT c.relname::text AS table_name,
       CASE k.contype WHEN 'p' THEN 'PRIMARY KEY' ELSE 'FOREIGN KEY' END AS constraint_type,
       ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(n, i) JOIN pg_catalog.pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i) AS constraint_column_names,
       r.relname::text AS referenced_table,
       ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u(n, i) JOIN pg_catalog.pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i) AS referenced_column_names
  FROM pg_catalog.pg_constraint k
  JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_catalog.pg_class r ON r.oid = k.confrelid
  LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace
  WHERE n.nspname = $1 AND k.contype IN ('p', 'f') AND (k.contype = 'p' OR rn.nspname = $1)
  ORDER BY c.relname, k.conname`;

/**
 * Argument types a drafted query over ordinary tables meets, best first. PostgreSQL overloads many
 * names for types no draft will use (`length(tsvector)`, `trunc(macaddr)`, `lower(anyrange)`);
 * those would make the signature and description misleading, so they are dropped when a common
 * overload exists, and the remaining ones are ordered so the most typical speaks for the function.
 */
const TYPE_PREFERENCE: Record<string, number> = {
  'timestamp without time zone': 4,
  text: 3,
  'double precision': 3,
  numeric: 3,
  integer: 2,
  bigint: 2,
  interval: 2,
  date: 2,
  boolean: 2,
  'timestamp with time zone': 1,
  any: 1,
  anyelement: 1,
  anynonarray: 1,
  anyarray: 1,
  anycompatible: 1,
  json: 1,
  jsonb: 1,
  'text[]': 1,
  smallint: 0,
  real: 0,
  'character varying': 0,
  character: 0,
  name: 0,
  time: 0,
  'time without time zone': 0,
  'time with time zone': 0,
};

function preferCommonOverloads(overloads: FunctionOverload[]): FunctionOverload[] {
  const byName = new Map<string, FunctionOverload[]>();
  for (const o of overloads) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  const score = (o: FunctionOverload): number => o.params.reduce((sum, p) => sum + (TYPE_PREFERENCE[p] ?? 0), 0);
  return [...byName.values()].flatMap((group) => {
    const common = group.filter((o) => !o.params.some((p) => EXOTIC_TYPES.has(p)));
    const kept = common.length > 0 ? common : group;
    return kept
      .map((o, i) => ({ o, i }))
      .sort((a, b) => score(b.o) - score(a.o) || a.i - b.i)
      .map(({ o }) => o);
  });
}

/** Argument types that only make an overload noise for analytics drafts. */
const EXOTIC_TYPES = new Set([
  'bytea',
  'bit',
  'bit varying',
  'tsvector',
  'tsquery',
  'anyrange',
  'anymultirange',
  'macaddr',
  'macaddr8',
  'inet',
  'cidr',
  'xid',
  'xid8',
  'money',
  'point',
  'lseg',
  'box',
  'path',
  'polygon',
  'circle',
  'line',
  'pg_lsn',
  'oid',
  'regclass',
  'regconfig',
  'internal',
  'tid',
  'txid_snapshot',
  'pg_snapshot',
  'name',
]);

/** One attribute of a table or composite type, with what is needed to expand arrays and composites. */
interface ColumnRow {
  owner: string;
  column_name: string;
  data_type: string;
  typtype: string;
  typrelid: number;
  elem_type: string | null;
  elem_typtype: string | null;
  elem_typrelid: number | null;
}

const COLUMNS_SQL = `SELECT c.relname AS owner, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS data_type,
         t.typtype::text AS typtype, t.typrelid::int AS typrelid,
         CASE WHEN t.typcategory = 'A' THEN format_type(t.typelem, NULL) END AS elem_type,
         CASE WHEN t.typcategory = 'A' THEN et.typtype::text END AS elem_typtype,
         CASE WHEN t.typcategory = 'A' THEN et.typrelid::int END AS elem_typrelid
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_catalog.pg_type et ON et.oid = t.typelem`;

/** Composite types nest; past this depth a column is reported by its type name only. */
const MAX_COMPOSITE_DEPTH = 4;

/** PostgreSQL arrays become `list` with an `element`, composite types `struct` with `fields`. */
async function toColumn(
  client: PoolClient,
  row: ColumnRow,
  composites: Map<number, Column[]>,
  depth: number,
): Promise<Column> {
  if (row.elem_type !== null) {
    const element: Column =
      row.elem_typtype === 'c' && row.elem_typrelid && depth < MAX_COMPOSITE_DEPTH
        ? {
            name: 'element',
            data_type: 'struct',
            fields: await compositeFields(client, row.elem_typrelid, composites, depth + 1),
          }
        : { name: 'element', data_type: row.elem_type };
    return { name: row.column_name, data_type: 'list', element };
  }
  if (row.typtype === 'c' && row.typrelid && depth < MAX_COMPOSITE_DEPTH) {
    return {
      name: row.column_name,
      data_type: 'struct',
      fields: await compositeFields(client, row.typrelid, composites, depth + 1),
    };
  }
  return { name: row.column_name, data_type: row.data_type };
}

async function compositeFields(
  client: PoolClient,
  relid: number,
  cache: Map<number, Column[]>,
  depth: number,
): Promise<Column[]> {
  const cached = cache.get(relid);
  if (cached) return cached;
  const result = await client.query<ColumnRow>(`${COLUMNS_SQL} WHERE c.oid = $1 ORDER BY a.attnum`, [relid]);
  const fields: Column[] = [];
  for (const row of result.rows) fields.push(await toColumn(client, row, cache, depth));
  cache.set(relid, fields);
  return fields;
}

function extended(text: string, types?: QueryArrayConfig['types']): ExtendedQuery {
  return { text, rowMode: 'array', queryMode: 'extended', ...(types ? { types } : {}) };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
