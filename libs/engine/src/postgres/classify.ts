import type { EngineErrorKind } from '../port';

/** The fields of a PostgreSQL error that pg's `DatabaseError` carries. */
export interface PgErrorFields {
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: string;
}

/** SQLSTATE 57014 `query_canceled`: what `statement_timeout` raises. */
export const PG_QUERY_CANCELED = '57014';

/**
 * SQLSTATE classes that are a verdict on the query text (the repair loop should rewrite it):
 * 42 syntax error or access rule violation, 22 data exception, 0A feature not supported,
 * 21 cardinality violation, 3F invalid schema name, 25006 read-only transaction (the query tried
 * to write), 2BP01 dependent objects. Anything else (connection, resources, shutdown, internal)
 * is about the server, not the SQL.
 */
export function isPgVerdict(code: string | undefined): boolean {
  if (!code || code.length !== 5) return false;
  return ['42', '22', '0A', '21', '3F'].includes(code.slice(0, 2)) || code === '25006' || code === '2BP01';
}

/** Classifies a PostgreSQL error by its SQLSTATE (falling back to the text only for operators). */
export function classifyPgError(err: PgErrorFields): EngineErrorKind {
  switch (err.code) {
    case '42601': // syntax_error
    case '42P02': // undefined_parameter
      return 'syntax';
    case '42703': // undefined_column
      return 'unknown_column';
    case '42P01': // undefined_table
    case '3F000': // invalid_schema_name
      return 'unknown_stream';
    case '42883': // undefined_function, which also covers operators
      return /^operator does not exist/i.test(err.message) ? 'semantic' : 'unknown_function';
    default:
      return isPgVerdict(err.code) ? 'semantic' : 'other';
  }
}

/**
 * PostgreSQL's message in the shape psql shows it, with the SQLSTATE, the position inside the
 * caller's SQL (`offset` removes a prefix this adapter added, such as `EXPLAIN `), DETAIL and HINT.
 */
export function formatPgError(err: PgErrorFields, offset = 0): string {
  const parts = [err.message];
  const position = Number(err.position);
  if (Number.isInteger(position) && position - offset > 0) parts[0] += ` (at character ${position - offset})`;
  if (err.code) parts[0] += ` [SQLSTATE ${err.code}]`;
  if (err.detail) parts.push(`DETAIL: ${err.detail}`);
  if (err.hint) parts.push(`HINT: ${err.hint}`);
  return parts.join('\n');
}

/** Whether `err` looks like a server error from pg (checked structurally, across realms). */
export function asPgError(err: unknown): PgErrorFields | null {
  if (!err || typeof err !== 'object' || !('message' in err) || typeof err.message !== 'string') return null;
  const e = err as Record<string, unknown>;
  // `severity` tells a server error from a Node socket error such as EPIPE (also five letters).
  if (typeof e.code !== 'string' || !/^[0-9A-Z]{5}$/.test(e.code) || typeof e.severity !== 'string') return null;
  return {
    code: e.code,
    message: err.message,
    detail: typeof e.detail === 'string' ? e.detail : undefined,
    hint: typeof e.hint === 'string' ? e.hint : undefined,
    position: typeof e.position === 'string' ? e.position : undefined,
  };
}
