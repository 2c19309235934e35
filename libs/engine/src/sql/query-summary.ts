/**
 * What the read-only policy needs to know of a query, in terms no parser owns. Each SQL target's
 * parser (DuckDB's own, PostgreSQL's own) reduces its parse tree to this; the policy
 * (`read-only-policy.ts`) judges only this, so both targets refuse the same things for the same
 * reasons whatever their trees look like.
 */
export interface QuerySummary {
  /** Statements in the text, as the engine's parser splits it (an empty trailing one not counted). */
  statementCount: number;
  /** The first statement's kind, upper case: `SELECT` for a query, else its keyword (`DROP`, `COPY`). */
  kind: string;
  /** Statements other than a query nested inside it (a data-modifying CTE), upper case. */
  nestedStatements: string[];
  /** `SELECT … INTO t`: creates a table. */
  selectInto: boolean;
  /** `FOR UPDATE` / `FOR SHARE`: takes row locks. */
  locksRows: boolean;
  /** Every function the query calls (scalar, aggregate, window, table), lower case, without schema. */
  functions: string[];
  /** Files the query reads by naming them where a table goes (DuckDB's `FROM 'x.parquet'`). */
  fileReads: string[];
}

/** The parser's verdict: a summary, or the engine's own syntax error (with where it is, if known). */
export type ParseOutcome = { parsed: true; summary: QuerySummary } | { parsed: false; error: string; offset?: number };

/** One SQL target's own parser, reduced to what the shared guard asks of it. */
export interface SqlParser {
  /** The engine's name, for messages: `DuckDB cannot parse the SQL: …`. */
  engine: string;
  parse(sql: string): Promise<ParseOutcome>;
}

/**
 * The first keyword of the statement starting at `offset`, upper case, after whitespace, comments
 * and opening parentheses: how a refused statement is named (`found DROP`). Naming only — whether
 * the statement is a query is the engine parser's verdict, never this.
 */
export function leadingKeyword(sql: string, offset = 0): string {
  let i = Math.max(0, offset);
  for (;;) {
    while (i < sql.length && (/\s/.test(sql[i] ?? '') || sql[i] === '(')) i++;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      i = blockCommentEnd(sql, i);
    } else {
      break;
    }
  }
  const word = /^[A-Za-z_]+/.exec(sql.slice(i))?.[0];
  return word ? word.toUpperCase() : 'an unknown statement';
}

/** Both engines nest block comments (`/* a /* b *\/ c *\/`). */
function blockCommentEnd(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth++;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

/** `line 2, column 5` for a 0-based character offset into `sql`. */
export function lineAndColumn(sql: string, offset: number): string {
  const before = sql.slice(0, Math.max(0, Math.min(offset, sql.length)));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/**
 * Parse trees of long `a || b || c …` chains are deeper than the call stack: every walk over one is
 * iterative. Calls `visit` on every object (arrays are walked through, not visited).
 */
export function walkTree(root: unknown, visit: (node: Record<string, unknown>) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    visit(record);
    for (const value of Object.values(record)) if (value !== null && typeof value === 'object') stack.push(value);
  }
}
