import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { checkReadOnlySelect, type GuardVerdict } from '../sql/read-only-guard';
import { leadingKeyword, walkTree, type ParseOutcome, type QuerySummary, type SqlParser } from '../sql/query-summary';

/**
 * DuckDB's own parser, for the read-only guard. The text is only ever a bound parameter of
 * `json_serialize_sql` (which returns DuckDB's parse tree as JSON, or its parse error, and refuses
 * statements other than queries) and the input of `extractStatements` (which splits it into
 * statements): it is parsed, never bound or run. The instance is in-memory, holds no data, and
 * has external access off and its configuration locked all the same.
 *
 * One connection with the `json_serialize_sql` call prepared once: preparing it per text would
 * cost twice the parse itself. A connection runs one thing at a time, so parses take turns.
 */
interface ParseSession {
  connection: DuckDBConnection;
  serialize: DuckDBPreparedStatement;
}

let session: Promise<ParseSession> | null = null;
let turn: Promise<unknown> = Promise.resolve();

function openSession(): Promise<ParseSession> {
  if (!session) {
    const opening = (async () => {
      const instance = await DuckDBInstance.create(':memory:', {
        enable_external_access: 'false',
        autoinstall_known_extensions: 'false',
        autoload_known_extensions: 'false',
        lock_configuration: 'true',
        threads: '1',
      });
      const connection = await instance.connect();
      const serialize = await connection.prepare(
        'SELECT json_serialize_sql($1::VARCHAR, skip_null := true, skip_empty := true) AS tree',
      );
      return { connection, serialize };
    })();
    session = opening;
    opening.catch(() => {
      if (session === opening) session = null;
    });
  }
  return session;
}

function inTurn<T>(work: (session: ParseSession) => Promise<T>): Promise<T> {
  const run = turn.then(async () => work(await openSession()));
  turn = run.catch(() => undefined);
  return run;
}

/** What `json_serialize_sql` returns: the statements' trees, or DuckDB's error. */
type Serialized =
  | { error: false; statements: { node: unknown }[] }
  | { error: true; error_type?: string; error_message?: string; position?: string };

/** `json_serialize_sql`'s refusal of any statement but a query. */
const NOT_A_QUERY = 'not implemented';

/** DuckDB writes "no location" as the largest unsigned 64-bit integer. */
const NO_LOCATION = 2 ** 63;

export const duckDbParser: SqlParser = {
  engine: 'DuckDB',
  parse(sql: string): Promise<ParseOutcome> {
    return inTurn(async ({ connection, serialize }) => {
      serialize.bindVarchar(1, sql);
      const tree = (await serialize.runAndReadAll()).getRowObjectsJS()[0]?.tree;
      if (typeof tree !== 'string') throw new Error('json_serialize_sql returned no tree');
      const serialized = JSON.parse(tree) as Serialized;
      if (serialized.error && serialized.error_type !== NOT_A_QUERY) {
        const offset = Number(serialized.position);
        return {
          parsed: false,
          error: serialized.error_message ?? 'unknown parser error',
          ...(Number.isInteger(offset) ? { offset } : {}),
        };
      }
      // Only whitespace and comments (extractStatements fails on a text with no statement).
      if (!serialized.error && serialized.statements.length === 0) return { parsed: true, summary: summarize([], 0) };
      // The same split the adapter's database check makes before running anything.
      const statementCount = (await connection.extractStatements(sql)).count;
      if (serialized.error) return { parsed: true, summary: otherStatement(sql, statementCount) };
      return { parsed: true, summary: summarize(serialized.statements, statementCount) };
    });
  },
};

/** A statement `json_serialize_sql` would not serialize: not a query, named by its keyword. */
function otherStatement(sql: string, statementCount: number): QuerySummary {
  return {
    statementCount,
    kind: leadingKeyword(sql),
    nestedStatements: [],
    selectInto: false,
    locksRows: false,
    functions: [],
    fileReads: [],
  };
}

function summarize(statements: { node: unknown }[], statementCount: number): QuerySummary {
  const root = statements[0]?.node as Record<string, unknown> | undefined;
  const rootShow = showOf(root?.from_table);
  const summary: QuerySummary = {
    statementCount,
    // DESCRIBE, SHOW and SUMMARIZE parse as `SELECT * FROM <show>` with no location of their own.
    kind: rootShow && !hasLocation(root?.from_table) ? rootShow : 'SELECT',
    nestedStatements: [],
    // DuckDB's parser refuses SELECT … INTO, FOR UPDATE and data-modifying CTEs itself.
    selectInto: false,
    locksRows: false,
    functions: [],
    fileReads: [],
  };
  walkTree(statements, (node) => {
    if (typeof node.function_name === 'string') summary.functions.push(node.function_name.toLowerCase());
    const show = showOf(node);
    if (show && node !== root?.from_table) summary.nestedStatements.push(show);
    if (node.type === 'BASE_TABLE' && typeof node.table_name === 'string' && namesFile(node.table_name)) {
      summary.fileReads.push(node.table_name);
    }
  });
  return summary;
}

/** DESCRIBE / SHOW / SUMMARIZE, which DuckDB parses into a `SHOW_REF` table reference. */
function showOf(node: unknown): string | null {
  if (!node || typeof node !== 'object' || (node as { type?: unknown }).type !== 'SHOW_REF') return null;
  const showType = (node as { show_type?: unknown }).show_type;
  if (showType === 'SUMMARY') return 'SUMMARIZE';
  if (showType === 'DESCRIBE') return 'DESCRIBE';
  return 'SHOW';
}

function hasLocation(node: unknown): boolean {
  const location = (node as { query_location?: unknown } | undefined)?.query_location;
  return typeof location === 'number' && location < NO_LOCATION;
}

/**
 * A table name DuckDB would read as a file (a replacement scan: `FROM 'x.parquet'`, `FROM
 * "s3://b/k.csv"`). The parser keeps schema and catalog apart, so a dot, slash or colon left in
 * the name itself came from a quoted path, never from an ordinary table.
 */
function namesFile(tableName: string): boolean {
  return /[./\\:]/.test(tableName);
}

/** The DuckDB target's read-only guard: DuckDB's own parser under the shared policy. */
export function checkDuckDbSelect(sql: string): Promise<GuardVerdict> {
  return checkReadOnlySelect(sql, duckDbParser);
}
