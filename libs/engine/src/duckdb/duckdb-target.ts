import { DuckDBInstance, StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { TargetKind } from '@nl2p/envelope';
import { QueryTimeLimitError, TargetQueryError, type Catalog, type StreamInfo, type ValidationResult } from '../port';
import { readColumnValues } from '../sql/column-values';
import { foldOverloads, withSyntaxFunctions, type FunctionOverload } from '../sql/sql-functions';
import { RefusedQueryError } from '../sql/read-only-guard';
import { withComments } from '../sql/table-comments';
import { withKeys } from '../sql/table-keys';
import { SqlDatabaseTarget } from '../sql/sql-database-target';
import { classifyDuckDbError, isDuckDbInfrastructureError, isDuckDbInterrupt } from './classify';
import { DUCKDB_SYNTAX_RULES, duckDbDialectNotes } from './duckdb-catalog';
import { checkDuckDbSelect } from './duckdb-parser';
import { duckDbColumn, previewValueConverter } from './duckdb-values';
import { prepareOnly, runSingle } from './single-statement';
import { DUCKDB_FUNCTION_NAMES } from './function-names';

export interface DuckDbTargetOptions {
  /** A database file, or `:memory:`. */
  path: string;
  /** Rows a preview returns (one more is read to tell whether there are more). Default 20. */
  previewRows?: number;
  /** Time limit for every query this target runs, preview and EXPLAIN alike. Default 5000. */
  queryTimeoutMs?: number;
  /**
   * Open the file read-only (the default for files). `:memory:` cannot be opened read-only: there
   * the single-SELECT checks are the protection, and `readOnly: true` is a configuration error.
   */
  readOnly?: boolean;
  /**
   * Runs once on a fresh read-write instance before the first query, e.g. `loadDemoData` to fill a
   * `:memory:` database. Not allowed with a read-only file.
   */
  setup?: (connection: DuckDBConnection) => Promise<void>;
}

/**
 * After the time limit the connection is interrupted; DuckDB stops at its next check, which is
 * normally within milliseconds. If it has not stopped after this much longer, the call gives up
 * waiting (the connection is closed once the query does stop).
 */
const INTERRUPT_GRACE_MS = 2_000;
/** An interrupt that lands while DuckDB is between statements can be lost, so it is repeated. */
const INTERRUPT_REPEAT_MS = 25;

/**
 * {@link EngineTarget} for an embedded DuckDB database (ARCHITECTURE §7): the tables and views of
 * the `main` schema are the streams, validation is `EXPLAIN`, and `preview` returns the first rows.
 *
 * Protection, in layers: {@link checkDuckDbSelect} (DuckDB's own parser, used for parsing only)
 * refuses anything but one read-only SELECT before the database sees it; DuckDB then re-checks that the text is one statement of type SELECT before running it;
 * the instance is opened read-only (files), with file, network and extension access disabled and
 * its configuration locked, so a query can read only this database's tables; and every query is
 * interrupted when it exceeds the time limit. Each call uses its own connection, so an interrupt
 * stops only that call.
 */
export class DuckDbTarget extends SqlDatabaseTarget {
  readonly kind: TargetKind = 'duckdb';
  protected readonly label = 'DuckDB';
  protected readonly guard = checkDuckDbSelect;

  private readonly path: string;
  protected readonly previewRows: number;
  private readonly queryTimeoutMs: number;
  private readonly readOnly: boolean;
  private readonly setup: DuckDbTargetOptions['setup'];
  private instance: Promise<DuckDBInstance> | null = null;

  constructor(options: DuckDbTargetOptions) {
    super();
    this.path = options.path;
    this.previewRows = options.previewRows ?? 20;
    this.queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
    const memory = isMemoryPath(options.path);
    this.readOnly = options.readOnly ?? !memory;
    this.setup = options.setup;
    if (!Number.isInteger(this.previewRows) || this.previewRows < 1)
      throw new Error(`previewRows must be a positive integer, got ${this.previewRows}`);
    if (!(this.queryTimeoutMs > 0)) throw new Error(`queryTimeoutMs must be positive, got ${this.queryTimeoutMs}`);
    if (memory && this.readOnly)
      throw new Error('an in-memory DuckDB database cannot be opened read-only; leave readOnly unset for :memory:');
    if (this.readOnly && this.setup) throw new Error('setup needs a writable database; pass readOnly: false to use it');
  }

  /** Tables and views of the `main` schema with their columns, in name order. */
  async listStreams(): Promise<StreamInfo[]> {
    const rows = await this.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'main' AND table_catalog = current_database()
       ORDER BY table_name, ordinal_position`,
    );
    return withComments(withKeys(groupColumns(rows), await this.query(KEYS_SQL)), await this.query(COMMENTS_SQL));
  }

  /**
   * One table or view. DuckDB resolves unquoted names case-insensitively, so a name that differs
   * only in case still finds its table (an exact match wins when both exist).
   */
  async describeStream(name: string): Promise<StreamInfo | null> {
    const rows = await this.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns
       WHERE table_schema = 'main' AND table_catalog = current_database() AND lower(table_name) = lower($1)
       ORDER BY table_name, ordinal_position`,
      [name],
    );
    const tables = groupColumns(rows);
    return tables.find((t) => t.name === name) ?? (tables.length === 1 ? (tables[0] ?? null) : null);
  }

  /** A curated subset of `duckdb_functions()` (overloads folded), the syntax rules and §7 notes. */
  async loadCatalog(): Promise<Catalog> {
    const names = DUCKDB_FUNCTION_NAMES.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ');
    const rows = await this.query(
      `SELECT function_name, function_type, parameters, varargs, description, alias_of
       FROM duckdb_functions()
       WHERE function_type IN ('scalar', 'aggregate', 'macro')
         AND (function_name IN (${names}) OR alias_of IN (${names}))`,
    );
    const overloads: FunctionOverload[] = rows.map((r) => ({
      name: String(r.function_name),
      kind: r.function_type === 'aggregate' ? 'aggregate' : 'scalar',
      params: Array.isArray(r.parameters) ? r.parameters.map(String) : [],
      variadic: r.varargs !== null && r.varargs !== undefined,
      description: typeof r.description === 'string' ? r.description : '',
      aliasOf: typeof r.alias_of === 'string' ? r.alias_of : null,
    }));
    const values = await readColumnValues(await this.listStreams(), async (sql) =>
      (await this.query(sql)).map((row) => Object.values(row)[0]),
    );
    return {
      dialect: 'duckdb',
      values,
      functions: withSyntaxFunctions(foldOverloads(overloads, DUCKDB_FUNCTION_NAMES)),
      syntax: DUCKDB_SYNTAX_RULES.map((r) => ({ ...r, notes: [...r.notes] })),
      dialectNotes: duckDbDialectNotes({ queryTimeoutMs: this.queryTimeoutMs, previewRows: this.previewRows }),
    };
  }

  /** DuckDB's verdicts (parser, binder, catalog errors) with its own message; its trouble (time limit, I/O) thrown. */
  protected planRejection(err: unknown, tmpId: string): ValidationResult {
    if (err instanceof RefusedQueryError) return { ok: false, tmpId, kind: 'semantic', error: err.message };
    if (err instanceof TargetQueryError) throw err;
    const message = errorText(err);
    if (isDuckDbInfrastructureError(message))
      throw new TargetQueryError(`DuckDB failed while validating: ${message}`, { cause: err });
    return { ok: false, tmpId, kind: classifyDuckDbError(message), error: message };
  }

  protected async readRows(previewSql: string): Promise<{ columns: string[]; rows: unknown[][] }> {
    try {
      return await this.withConnection(async (connection) => {
        const reader = await runSingle(connection, previewSql, StatementType.SELECT);
        return { columns: reader.columnNames(), rows: reader.convertRows(previewValueConverter) };
      });
    } catch (err) {
      if (err instanceof TargetQueryError) throw err;
      throw new TargetQueryError(`DuckDB could not run the preview: ${errorText(err)}`, { cause: err });
    }
  }

  /** Closes the database. The next call opens it again. */
  async close(): Promise<void> {
    const instance = this.instance;
    this.instance = null;
    if (instance) (await instance.catch(() => null))?.closeSync();
  }

  protected async planOf(sql: string): Promise<string> {
    return this.withConnection(async (connection) => {
      // Preparing the draft on its own first makes DuckDB's errors point into the draft itself
      // rather than into `EXPLAIN <draft>`, and re-checks its statement count and type.
      await prepareOnly(connection, sql, StatementType.SELECT);
      const reader = await runSingle(connection, `EXPLAIN ${sql}`, StatementType.EXPLAIN);
      const rows = reader.getRowObjectsJS();
      return rows
        .map((r) => (typeof r.explain_value === 'string' ? r.explain_value : ''))
        .join('\n')
        .trimEnd();
    });
  }

  /** Runs a catalog query of this adapter (never user text) and returns rows as JS objects. */
  private async query(sql: string, params?: DuckDBValue[]): Promise<Record<string, unknown>[]> {
    return this.withConnection(async (connection) =>
      (await runSingle(connection, sql, StatementType.SELECT, params)).getRowObjectsJS(),
    );
  }

  /**
   * Runs `work` on a fresh connection under the time limit. On timeout the connection is
   * interrupted (repeatedly, until the work settles) and the call fails with a
   * {@link TargetQueryError}; the connection is closed once DuckDB lets go of it.
   */
  private async withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const instance = await this.open();
    const connection = await instance.connect();
    let timedOut = false;
    let repeat: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
      repeat = setInterval(() => connection.interrupt(), INTERRUPT_REPEAT_MS);
    }, this.queryTimeoutMs);
    let release = true;
    const running = work(connection);
    try {
      let giveUp: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => {
        giveUp = setTimeout(() => resolve('stuck'), this.queryTimeoutMs + INTERRUPT_GRACE_MS);
      });
      const outcome = await Promise.race([running.then((value) => ({ value })), stuck]).finally(() =>
        clearTimeout(giveUp),
      );
      if (outcome === 'stuck') {
        release = false;
        throw new QueryTimeLimitError(
          `query exceeded the ${this.queryTimeoutMs} ms time limit and did not stop when interrupted`,
        );
      }
      return outcome.value;
    } catch (err) {
      if (timedOut && !(err instanceof TargetQueryError) && isDuckDbInterrupt(errorText(err))) {
        throw new QueryTimeLimitError(`query exceeded the ${this.queryTimeoutMs} ms time limit`, { cause: err });
      }
      throw err;
    } finally {
      clearTimeout(timer);
      const done = (): void => {
        clearInterval(repeat);
        connection.closeSync();
      };
      if (release) done();
      else void running.then(done, done);
    }
  }

  private open(): Promise<DuckDBInstance> {
    if (!this.instance) {
      const opening = this.openInstance();
      this.instance = opening;
      // A failed open must not stick: the file may appear later (ensureDemoDatabase in another process).
      opening.catch(() => {
        if (this.instance === opening) this.instance = null;
      });
    }
    return this.instance;
  }

  private async openInstance(): Promise<DuckDBInstance> {
    const options: Record<string, string> = {
      // Queries read this database's tables and nothing else: no files, no network, no
      // extension downloads, and no SET to undo any of it.
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      lock_configuration: 'true',
    };
    if (this.readOnly) options.access_mode = 'READ_ONLY';
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(this.path, options);
    } catch (err) {
      throw new TargetQueryError(
        `could not open the DuckDB database ${this.path}${this.readOnly ? ' read-only' : ''}: ${errorText(err)}`,
        {
          cause: err,
        },
      );
    }
    if (this.setup) {
      const connection = await instance.connect();
      try {
        await this.setup(connection);
      } catch (err) {
        instance.closeSync();
        throw new Error(`the DuckDB setup for ${this.path} failed`, { cause: err });
      } finally {
        connection.closeSync();
      }
    }
    return instance;
  }
}

function isMemoryPath(path: string): boolean {
  return path === ':memory:' || path === '' || path.startsWith(':memory:');
}

/**
 * The message of an error from the native binding. Checked structurally, not with `instanceof`:
 * the addon creates its errors in the main realm, which is not the realm of a Jest test.
 */
function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') return err.message;
  return String(err);
}

/** Declared primary and foreign keys of the `main` schema (DuckDB names what a foreign key references). */
/** Comments on the `main` schema's tables, views and columns (`COMMENT ON …`). */
const COMMENTS_SQL = `SELECT table_name, column_name, comment FROM duckdb_columns()
    WHERE schema_name = 'main' AND database_name = current_database() AND comment IS NOT NULL
  UNION ALL SELECT table_name, NULL, comment FROM duckdb_tables()
    WHERE schema_name = 'main' AND database_name = current_database() AND comment IS NOT NULL
  UNION ALL SELECT view_name, NULL, comment FROM duckdb_views()
    WHERE schema_name = 'main' AND database_name = current_database() AND comment IS NOT NULL`;

const KEYS_SQL = `SELECT table_name, constraint_type, constraint_column_names, referenced_table, referenced_column_names
  FROM duckdb_constraints()
  WHERE schema_name = 'main' AND database_name = current_database() AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
  ORDER BY table_name, constraint_index`;

/** Groups `information_schema.columns` rows into streams, keeping the query's order. */
function groupColumns(rows: Record<string, unknown>[]): StreamInfo[] {
  const byTable = new Map<string, StreamInfo>();
  for (const row of rows) {
    const table = String(row.table_name);
    const info = byTable.get(table) ?? { name: table, columns: [] };
    byTable.set(table, info);
    info.columns.push(duckDbColumn(String(row.column_name), String(row.data_type)));
  }
  return [...byTable.values()];
}
