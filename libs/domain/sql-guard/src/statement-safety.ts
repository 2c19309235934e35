import { SIDE_EFFECT_FUNCTIONS } from '@nl2p/sql-policy';
import { FORBIDDEN_ANYWHERE } from './keywords';
import { isSymbol, isWord, splitStatements, tokenize, type LexProblem, type Token } from './lexer';
import { GUARD_DIALECTS } from './dialects';
import type { SqlDialect } from './types';

/** Longer input is refused outright: no drafted SELECT is that long, and parsers can be slow on it. */
export const MAX_SQL_LENGTH = 100_000;

export type SafetyCode =
  | 'empty'
  | 'too-long'
  | 'lex'
  | 'multiple-statements'
  | 'not-select'
  | 'forbidden-keyword'
  | 'side-effect'
  | 'file-access';

/** One reason the text is not provably a single read-only SELECT. */
export interface SafetyFinding {
  code: SafetyCode;
  /** What was found, for `(found X)`: `DROP`, `2 statements`, `unterminated string literal`. */
  found: string;
  /** A full sentence describing the problem. */
  detail: string;
  offset?: number;
}

export interface SafetyReport {
  findings: SafetyFinding[];
  /** All tokens, comments included. */
  tokens: Token[];
  /** Non-empty statements (significant tokens only). */
  statements: Token[][];
  /** Lexer problems that are not a safety matter (a no-break space), for prevalidate to report. */
  otherLexProblems: LexProblem[];
}

function upper(token: Token | undefined): string {
  if (!token) return 'nothing';
  return token.kind === 'word' ? token.text.toUpperCase() : token.text;
}

/** First word of a statement after any opening parentheses, e.g. `SELECT` in `((SELECT 1))`. */
function leadingWord(statement: readonly Token[]): Token | undefined {
  let i = 0;
  while (isSymbol(statement[i], '(')) i++;
  return statement[i];
}

/**
 * The statement-level safety checks shared by {@link prevalidate} and {@link assertSingleSelect}:
 * one statement, starting with SELECT (or WITH / `(` / DuckDB's FROM-first for SQL targets), no
 * statement keyword anywhere, nothing the lexer cannot read safely; for SQL targets also no
 * side-effecting function and no file read.
 *
 * No SQL parser runs here: the SQL targets' adapters parse every text with the engine's own parser
 * right before the database (`@nl2p/engine`'s read-only guard), and a parser of another grammar
 * added nothing the lexer had missed (issue 13's note: 6 refusals in 107,604 checks, all of valid
 * queries or of text both engines reject as a syntax error).
 */
export function inspectSafety(sql: string, dialectName: SqlDialect): SafetyReport {
  const dialect = GUARD_DIALECTS[dialectName];
  const findings: SafetyFinding[] = [];
  if (sql.length > MAX_SQL_LENGTH) {
    findings.push({
      code: 'too-long',
      found: `${sql.length} characters`,
      detail: `the SQL is ${sql.length} characters long; the limit is ${MAX_SQL_LENGTH}`,
    });
    return { findings, tokens: [], statements: [], otherLexProblems: [] };
  }

  const { tokens, problems } = tokenize(sql, { backtickIdentifiers: dialect.backtickIdentifiers });
  const otherLexProblems: LexProblem[] = [];
  for (const problem of problems) {
    // `$` may open a dollar-quoted string the lexer does not read (see lexer.ts), and a backslash
    // starts a psql meta-command should the text ever reach a shell client; other stray characters
    // (a no-break space) only make the query fail to parse.
    const unsafe = problem.kind !== 'unexpected-character' || sql[problem.start] === '$' || sql[problem.start] === '\\';
    if (unsafe) {
      findings.push({
        code: 'lex',
        found: problem.message.split(' at offset')[0] ?? problem.message,
        detail: problem.message,
        offset: problem.start,
      });
    } else {
      otherLexProblems.push(problem);
    }
  }

  const statements = splitStatements(tokens);
  if (statements.length === 0) {
    findings.push({ code: 'empty', found: 'no SQL', detail: 'there is no SQL statement, only whitespace or comments' });
    return { findings, tokens, statements, otherLexProblems };
  }
  if (statements.length > 1) {
    const second = statements[1]?.[0];
    findings.push({
      code: 'multiple-statements',
      found: `a second statement (${upper(second)})`,
      detail: `found ${statements.length} statements separated by ';' (the second starts with ${upper(second)})`,
      offset: second?.start,
    });
  }

  const first = statements[0] ?? [];
  const lead = dialect.statementStart.firstTokenOnly ? first[0] : leadingWord(first);
  const allowedLead = isWord(lead, ...dialect.statementStart.words);
  if (!allowedLead) {
    findings.push({
      code: 'not-select',
      found: upper(lead),
      detail: `the statement starts with ${upper(lead)}, not SELECT`,
      offset: lead?.start,
    });
  }

  for (const statement of statements) {
    for (let i = 0; i < statement.length; i++) {
      const token = statement[i];
      if (!token || token.kind !== 'word') continue;
      const lower = token.text.toLowerCase();
      const prev = statement[i - 1];
      // `t.update` and `a->update` are names, not statements.
      const qualified = isSymbol(prev, '.') || isSymbol(prev, '->');
      if (FORBIDDEN_ANYWHERE.has(lower) && !qualified) {
        findings.push({
          code: 'forbidden-keyword',
          found: token.text.toUpperCase(),
          detail: `${token.text.toUpperCase()} at offset ${token.start} is not allowed in a read-only query`,
          offset: token.start,
        });
      }
      if (dialect.database && SIDE_EFFECT_FUNCTIONS.has(lower) && isSymbol(statement[i + 1], '(')) {
        findings.push({
          code: 'side-effect',
          found: `${lower}()`,
          detail: `${lower}() at offset ${token.start} reads files or changes state outside the query`,
          offset: token.start,
        });
      }
      if (dialect.database && isWord(token, 'from', 'join') && statement[i + 1]?.kind === 'string') {
        findings.push({
          code: 'file-access',
          found: `${token.text.toUpperCase()} ${statement[i + 1]?.text ?? ''}`,
          detail: `${token.text.toUpperCase()} ${statement[i + 1]?.text ?? ''} reads a file; only tables may be queried`,
          offset: token.start,
        });
      }
    }
  }

  return { findings, tokens, statements, otherLexProblems };
}
