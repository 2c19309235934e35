import {
  StatementType,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBResultReader,
  type DuckDBValue,
} from '@duckdb/node-api';
import { RefusedQueryError } from '../sql/read-only-guard';

// Never `connection.run(text)` with text that came from outside: the Neo API runs *every*
// statement in the text (all but the last, then the last), so a text that DuckDB splits into two
// statements would run both. These helpers run exactly one, of the expected type, or nothing.

/**
 * Prepares `sql` and checks that the database sees exactly one statement of the expected type: the
 * database-side twin of the guard's parse, made on the connection that runs the text, so even text
 * built after the guard (the preview query around a draft) cannot run a second statement or a write.
 */
export async function prepareChecked(
  connection: DuckDBConnection,
  sql: string,
  expected: StatementType,
): Promise<DuckDBPreparedStatement> {
  const extracted = await connection.extractStatements(sql);
  if (extracted.count !== 1) {
    throw new RefusedQueryError(
      `exactly one statement is allowed; DuckDB found ${extracted.count}`,
      'not_select',
      'database',
    );
  }
  const prepared = await extracted.prepare(0);
  if (prepared.statementType !== expected) {
    const found = StatementType[prepared.statementType] ?? String(prepared.statementType);
    prepared.destroySync();
    throw new RefusedQueryError(
      `only ${StatementType[expected]} is allowed; DuckDB read the text as ${found}`,
      'not_select',
      'database',
    );
  }
  return prepared;
}

/** {@link prepareChecked} without running: binds the statement, so DuckDB reports its errors. */
export async function prepareOnly(connection: DuckDBConnection, sql: string, expected: StatementType): Promise<void> {
  (await prepareChecked(connection, sql, expected)).destroySync();
}

/** Runs `sql` as exactly one statement of the `expected` type and reads every row. */
export async function runSingle(
  connection: DuckDBConnection,
  sql: string,
  expected: StatementType,
  params?: DuckDBValue[],
): Promise<DuckDBResultReader> {
  const prepared = await prepareChecked(connection, sql, expected);
  try {
    if (params) prepared.bind(params);
    return await prepared.runAndReadAll();
  } finally {
    prepared.destroySync();
  }
}
