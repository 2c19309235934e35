// The PostgreSQL build only: the package root bundles every dialect's grammar (~2.5 MB).
import { Parser } from 'node-sql-parser/build/postgresql';
import { TargetQueryError } from '../port';
import { SIDE_EFFECT_FUNCTIONS } from '@nl2p/sql-policy';

/**
 * The SQL targets' own last line of defence before any text reaches DuckDB or PostgreSQL, shared
 * by both adapters (it lives here only because this folder holds the SQL-target code). It does not
 * wait for `@nl2p/sql-guard`: an adapter must be safe on its own, whatever its callers checked.
 *
 * Layers, outermost first: this parser check (exactly one SELECT, no data-modifying CTE, no
 * `SELECT … INTO`, no function known to touch files, sessions or other backends); then the
 * database itself — DuckDB re-checks the statement count and type before running anything and opens
 * files read-only with external access off; PostgreSQL runs inside `BEGIN READ ONLY` over the
 * extended protocol, which refuses a second statement.
 */

/** Longer input is refused unparsed: no drafted SELECT is that long, and parsing it would be slow. */
export const MAX_GUARDED_SQL_LENGTH = 100_000;

/** Why a text was refused, or nothing. `parse` failures are reported to the model as syntax. */
export type GuardVerdict = { ok: true } | { ok: false; reason: string; cause: 'parse' | 'not_select' | 'forbidden' };

/**
 * Statement node types node-sql-parser produces for anything but a query. Seeing one anywhere in
 * the tree (a CTE body, a subquery) refuses the text. (`DESCRIBE` is left out: ORDER BY items are
 * typed `DESC`, and a top-level DESCRIBE is refused as not-a-SELECT anyway.)
 */
const STATEMENT_TYPES = new Set([
  'alter',
  'analyze',
  'attach',
  'call',
  'checkpoint',
  'comment',
  'copy',
  'create',
  'deallocate',
  'declare',
  'delete',
  'detach',
  'drop',
  'exec',
  'execute',
  'explain',
  'grant',
  'insert',
  'install',
  'load',
  'load_data',
  'lock',
  'merge',
  'pragma',
  'prepare',
  'refresh',
  'rename',
  'replace',
  'reset',
  'revoke',
  'set',
  'show',
  'transaction',
  'truncate',
  'unlock',
  'update',
  'upsert',
  'use',
  'vacuum',
]);

const parser = new Parser();

/**
 * Checks that `sql` is exactly one read-only SELECT as node-sql-parser reads it (PostgreSQL
 * grammar, which covers the DuckDB SQL a model drafts; DuckDB-only syntax such as `GROUP BY ALL`
 * or FROM-first is refused rather than trusted unparsed).
 */
export function checkSingleSelect(sql: string): GuardVerdict {
  if (sql.trim() === '') return { ok: false, cause: 'parse', reason: 'the SQL is empty' };
  if (sql.length > MAX_GUARDED_SQL_LENGTH) {
    return {
      ok: false,
      cause: 'forbidden',
      reason: `the SQL is ${sql.length} characters long; the limit is ${MAX_GUARDED_SQL_LENGTH}`,
    };
  }
  if (sql.includes("\\'")) {
    // node-sql-parser reads \' as an escaped quote; DuckDB and PostgreSQL (standard strings) end
    // the string at the quote. Text the parsers split differently could hide a second statement.
    return {
      ok: false,
      cause: 'forbidden',
      reason:
        "a backslash before a quote is read differently by different SQL parsers; write a quote inside a string as ''",
    };
  }
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'postgresql' });
  } catch (err) {
    const detail = parseErrorDetail(err);
    return {
      ok: false,
      cause: 'parse',
      reason: `the SQL could not be read as a single standard SELECT statement (${detail}); write plain SQL without engine-specific shorthands`,
    };
  }
  const statements: unknown[] = (Array.isArray(ast) ? (ast as unknown[]) : [ast]).filter(
    (s) => s !== null && s !== undefined,
  );
  if (statements.length !== 1) {
    return { ok: false, cause: 'not_select', reason: `exactly one statement is allowed; found ${statements.length}` };
  }
  const [statement] = statements;
  const type = nodeType(statement);
  if (type !== 'select') {
    return {
      ok: false,
      cause: 'not_select',
      reason: `only SELECT is allowed; found ${(type ?? 'an unknown statement').toUpperCase()}`,
    };
  }
  return findForbidden(statement) ?? { ok: true };
}

/**
 * The parser's own message lists every token it would have accepted (hundreds of characters of
 * noise in a prompt); where it is at and what it found says enough.
 */
function parseErrorDetail(err: unknown): string {
  if (err && typeof err === 'object' && 'location' in err && 'found' in err) {
    const location = err.location as { start?: { line?: number; column?: number } } | undefined;
    const found = typeof err.found === 'string' ? JSON.stringify(err.found) : 'end of input';
    if (location?.start?.line !== undefined)
      return `unexpected ${found} at line ${location.start.line}, column ${location.start.column ?? '?'}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? message).slice(0, 200);
}

function nodeType(node: unknown): string | undefined {
  if (node && typeof node === 'object' && 'type' in node && typeof node.type === 'string')
    return node.type.toLowerCase();
  return undefined;
}

/** Walks the whole tree: statements nested in CTEs or subqueries count as much as the top one. */
function findForbidden(root: unknown): GuardVerdict | null {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    // Statement types are lower case; expression nodes reuse some words in upper case (ORDER BY
    // items are `{type: 'DESC'}`), so the raw spelling is compared.
    const type = 'type' in node && typeof node.type === 'string' ? node.type : undefined;
    if (type && STATEMENT_TYPES.has(type)) {
      return {
        ok: false,
        cause: 'not_select',
        reason: `only SELECT is allowed; found ${type.toUpperCase()} inside the query`,
      };
    }
    const record = node as Record<string, unknown>;
    if (isIntoClause(record.into)) {
      return { ok: false, cause: 'forbidden', reason: 'SELECT … INTO creates a table; only plain SELECT is allowed' };
    }
    const fn = functionName(record);
    if (fn && SIDE_EFFECT_FUNCTIONS.has(fn)) {
      return {
        ok: false,
        cause: 'forbidden',
        reason: `the function ${fn} is not allowed: it reaches beyond the query's own rows`,
      };
    }
    for (const value of Object.values(record)) {
      if (value && typeof value === 'object') stack.push(value);
    }
  }
  return null;
}

/** The parser always emits `into: {position: null}`; a real INTO clause has a target or position. */
function isIntoClause(into: unknown): boolean {
  if (!into || typeof into !== 'object') return false;
  const clause = into as Record<string, unknown>;
  return (
    (clause.expr !== null && clause.expr !== undefined) || (clause.position !== null && clause.position !== undefined)
  );
}

/** `foo(…)` is `{type:'function', name:{name:[{value:'foo'}]}}`; aggregates carry a plain name. */
function functionName(node: Record<string, unknown>): string | null {
  if (node.type === 'aggr_func' && typeof node.name === 'string') return node.name.toLowerCase();
  if (node.type !== 'function') return null;
  const name = node.name;
  if (typeof name === 'string') return name.toLowerCase();
  if (name && typeof name === 'object' && 'name' in name && Array.isArray(name.name)) {
    const last: unknown = name.name.at(-1);
    if (last && typeof last === 'object' && 'value' in last && typeof last.value === 'string')
      return last.value.toLowerCase();
  }
  return null;
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

/** Throws {@link RefusedQueryError} unless {@link checkSingleSelect} accepts `sql`. */
export function assertSingleSelectQuery(sql: string): void {
  const verdict = checkSingleSelect(sql);
  if (!verdict.ok) throw new RefusedQueryError(verdict.reason, verdict.cause);
}
