import { SIDE_EFFECT_FUNCTIONS } from '@nl2p/sql-policy';
import { TargetQueryError } from '../port';
import { lineAndColumn, type QuerySummary, type SqlParser } from './query-summary';

/**
 * The SQL targets' own last line of defence before any text reaches DuckDB or PostgreSQL. It does
 * not wait for `@nl2p/sql-guard`: an adapter must be safe on its own, whatever its callers checked.
 *
 * Layers, outermost first: this check — the text parsed by the target engine's own parser
 * (`duckdb/duckdb-parser.ts`, `postgres/postgres-parser.ts`), its tree reduced to a
 * {@link QuerySummary}, and one policy over that summary for both targets (exactly one query, no
 * statement nested in it, no `SELECT … INTO`, no row locks, no function of `@nl2p/sql-policy`'s
 * list, no file read); then the database itself — DuckDB re-checks the statement count and type
 * before running anything and opens files read-only with external access off; PostgreSQL runs
 * inside `BEGIN READ ONLY` over the extended protocol, which refuses a second statement.
 *
 * Because the parser is the engine's own, the text is read exactly as the engine will read it:
 * whatever the engine accepts as one query (DuckDB's FROM-first, `GROUP BY ALL`, lambdas;
 * PostgreSQL's `AT TIME ZONE`) passes, and a syntax error is reported in the engine's words.
 */

/** Longer input is refused unparsed: no drafted SELECT is that long, and parsing it would be slow. */
export const MAX_GUARDED_SQL_LENGTH = 100_000;

/** Why a text was refused, or nothing. `parse` failures are reported to the model as syntax. */
export type GuardVerdict = { ok: true } | { ok: false; reason: string; cause: 'parse' | 'not_select' | 'forbidden' };

/** One SQL target's guard: its own parser under the shared policy. */
export type ReadOnlyGuard = (sql: string) => Promise<GuardVerdict>;

/** Checks that `sql` is exactly one read-only query as `parser` (the target engine's own) reads it. */
export async function checkReadOnlySelect(sql: string, parser: SqlParser): Promise<GuardVerdict> {
  if (sql.trim() === '') return { ok: false, cause: 'parse', reason: 'the SQL is empty' };
  if (sql.length > MAX_GUARDED_SQL_LENGTH) {
    return {
      ok: false,
      cause: 'forbidden',
      reason: `the SQL is ${sql.length} characters long; the limit is ${MAX_GUARDED_SQL_LENGTH}`,
    };
  }
  const outcome = await parser.parse(sql);
  if (!outcome.parsed) {
    const where = outcome.offset === undefined ? '' : ` (${lineAndColumn(sql, outcome.offset)})`;
    return { ok: false, cause: 'parse', reason: `${parser.engine} cannot parse the SQL: ${outcome.error}${where}` };
  }
  return judgeSummary(outcome.summary);
}

/** The one policy both SQL targets share, over what their parsers found. */
export function judgeSummary(summary: QuerySummary): GuardVerdict {
  if (summary.statementCount === 0) return { ok: false, cause: 'parse', reason: 'the SQL is empty' };
  if (summary.statementCount !== 1) {
    return {
      ok: false,
      cause: 'not_select',
      reason: `exactly one statement is allowed; found ${summary.statementCount}`,
    };
  }
  if (summary.kind !== 'SELECT') {
    return { ok: false, cause: 'not_select', reason: `only SELECT is allowed; found ${summary.kind}` };
  }
  const [nested] = summary.nestedStatements;
  if (nested !== undefined) {
    return { ok: false, cause: 'not_select', reason: `only SELECT is allowed; found ${nested} inside the query` };
  }
  if (summary.selectInto) {
    return { ok: false, cause: 'forbidden', reason: 'SELECT … INTO creates a table; only plain SELECT is allowed' };
  }
  if (summary.locksRows) {
    return {
      ok: false,
      cause: 'forbidden',
      reason: 'SELECT … FOR UPDATE/SHARE locks rows; only plain SELECT is allowed',
    };
  }
  const sideEffect = summary.functions.find((fn) => SIDE_EFFECT_FUNCTIONS.has(fn));
  if (sideEffect !== undefined) {
    return {
      ok: false,
      cause: 'forbidden',
      reason: `the function ${sideEffect} is not allowed: it reaches beyond the query's own rows`,
    };
  }
  const [file] = summary.fileReads;
  if (file !== undefined) {
    return {
      ok: false,
      cause: 'forbidden',
      reason: `the query reads the file ${JSON.stringify(file)}; only the database's tables may be queried`,
    };
  }
  return { ok: true };
}

/**
 * A SQL target refused to run a text because it is not a single read-only SELECT. `validate`
 * reports it as a verdict on the SQL; `preview` throws it (it is a {@link TargetQueryError}).
 */
export class RefusedQueryError extends TargetQueryError {
  constructor(
    readonly reason: string,
    readonly refusal: 'parse' | 'not_select' | 'forbidden',
    /** Which layer refused: this module's check, or the database's own parser before running. */
    readonly stage: 'guard' | 'database' = 'guard',
  ) {
    super(
      `refused ${stage === 'guard' ? 'before reaching the database' : 'by the database before running'}: ${reason}`,
    );
  }
}

/** Throws {@link RefusedQueryError} unless `guard` accepts `sql`. */
export async function assertReadOnlySelect(sql: string, guard: ReadOnlyGuard): Promise<void> {
  const verdict = await guard(sql);
  if (!verdict.ok) throw new RefusedQueryError(verdict.reason, verdict.cause);
}

/** Drops trailing semicolons and whitespace, so the text can be nested in a subquery. */
export function stripTrailingSemicolons(sql: string): string {
  let out = sql.trimEnd();
  while (out.endsWith(';')) out = out.slice(0, -1).trimEnd();
  return out;
}

/**
 * The preview query: the validated SELECT as a subquery with a row limit. The newlines keep a
 * trailing `-- comment` in the draft from swallowing the closing parenthesis.
 */
export function previewQuery(sql: string, limit: number): string {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`preview limit must be a positive integer, got ${limit}`);
  return `SELECT * FROM (\n${stripTrailingSemicolons(sql)}\n) AS nl2p_preview LIMIT ${limit}`;
}
