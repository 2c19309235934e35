import { inspectSafety, type SafetyCode, type SafetyFinding } from './statement-safety';
import type { SqlDialect } from './types';

/**
 * Thrown by {@link assertSingleSelect}. The message starts with `refused:`; `found` names what was
 * found (`DROP`, `a second statement (SELECT)`, `unterminated string literal`).
 */
export class UnsafeSqlError extends Error {
  override readonly name = 'UnsafeSqlError';
  constructor(
    message: string,
    readonly found: string,
    readonly code: SafetyCode,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Most telling first: `SELECT 1; DROP STREAM s` is refused as "found DROP", not "found 2 statements". */
const PRIORITY: SafetyCode[] = [
  'forbidden-keyword',
  'not-select',
  'multiple-statements',
  'side-effect',
  'file-access',
  'lex',
  'too-long',
  'empty',
];

function message(finding: SafetyFinding): string {
  switch (finding.code) {
    case 'forbidden-keyword':
    case 'not-select':
    case 'multiple-statements':
      return `refused: only a single SELECT statement may be sent to the database (found ${finding.found})`;
    case 'empty':
      return 'refused: there is no SQL statement to send';
    default:
      return `refused: only a single read-only SELECT statement may be sent to the database (${finding.detail})`;
  }
}

/**
 * The last line of defence, called right before SQL is sent to an engine: throws unless `sql` is
 * provably one read-only SELECT. Deliberately stricter than the engines: statements are counted by
 * the lexer (every `;` outside strings, quoted names and comments separates statements); the
 * first keyword must be SELECT (veloFlux) or SELECT / WITH / DuckDB's FROM-first; no data-modifying
 * or DDL keyword may appear anywhere outside strings (a column named like one must be quoted); text
 * the lexer cannot read unambiguously (an unterminated string or comment, `$`, control characters)
 * is refused; for SQL targets, file-reading and state-changing functions are refused too.
 *
 * This does not replace the SQL targets' own guard (the engine's parser) nor running their queries
 * in a read-only transaction with a timeout.
 *
 * @throws {UnsafeSqlError}
 */
export function assertSingleSelect(sql: string, dialect: SqlDialect): void {
  let findings: SafetyFinding[];
  try {
    findings = inspectSafety(sql, dialect).findings;
  } catch (error) {
    // A bug in the checks must not let the text through.
    throw new UnsafeSqlError('refused: the SQL could not be checked', 'an internal error', 'lex', { cause: error });
  }
  if (findings.length === 0) return;
  const first = [...findings].sort((a, b) => PRIORITY.indexOf(a.code) - PRIORITY.indexOf(b.code))[0];
  throw new UnsafeSqlError(message(first), first.found, first.code);
}
