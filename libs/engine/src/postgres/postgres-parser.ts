import type { ParseResult } from 'libpg-query';
import { checkReadOnlySelect, type GuardVerdict } from '../sql/read-only-guard';
import { leadingKeyword, walkTree, type ParseOutcome, type QuerySummary, type SqlParser } from '../sql/query-summary';

/**
 * PostgreSQL's own parser (the server's grammar compiled to WebAssembly by `libpg-query`), for the
 * read-only guard. Loaded on first use, so a process that never guards PostgreSQL text never
 * instantiates it. Parsing is local: no server is involved.
 */
let library: Promise<typeof import('libpg-query')> | null = null;

export const postgresParser: SqlParser = {
  engine: 'PostgreSQL',
  async parse(sql: string): Promise<ParseOutcome> {
    library ??= import('libpg-query');
    const { parse, hasSqlDetails } = await library;
    let tree: ParseResult;
    try {
      tree = await parse(sql);
    } catch (err) {
      if (!hasSqlDetails(err)) throw err;
      return { parsed: false, error: err.message, offset: err.sqlDetails?.cursorPosition };
    }
    return { parsed: true, summary: summarize(sql, tree) };
  },
};

/** Statement nodes are named `…Stmt` (`SelectStmt`, `DeleteStmt`); the key is the node's type. */
const STATEMENT_NODE = /^([A-Z][A-Za-z]*)Stmt$/;

function summarize(sql: string, tree: ParseResult): QuerySummary {
  const statements = tree.stmts ?? [];
  const first = statements[0];
  const firstType = first?.stmt ? Object.keys(first.stmt)[0] : undefined;
  const summary: QuerySummary = {
    statementCount: statements.length,
    kind: firstType === 'SelectStmt' ? 'SELECT' : leadingKeyword(sql, first?.stmt_location ?? 0),
    nestedStatements: [],
    selectInto: false,
    locksRows: false,
    functions: [],
    fileReads: [],
  };
  walkTree(
    statements.map((s) => s.stmt),
    (node) => {
      for (const [key, value] of Object.entries(node)) {
        const statement = STATEMENT_NODE.exec(key);
        if (statement && key !== 'SelectStmt' && !statements.some((s) => s.stmt === node)) {
          summary.nestedStatements.push((statement[1] ?? key).toUpperCase());
        }
        if (key === 'intoClause' && value) summary.selectInto = true;
        if (key === 'lockingClause' && Array.isArray(value) && value.length > 0) summary.locksRows = true;
        if (key === 'FuncCall') {
          const name = functionName(value);
          if (name) summary.functions.push(name);
        }
      }
    },
  );
  return summary;
}

/** `pg_catalog.pg_read_file(…)` is `{funcname: [{String: {sval: 'pg_catalog'}}, {String: {sval: 'pg_read_file'}}]}`. */
function functionName(call: unknown): string | null {
  const parts = (call as { funcname?: unknown } | null)?.funcname;
  if (!Array.isArray(parts)) return null;
  const last = (parts.at(-1) as { String?: { sval?: unknown } } | undefined)?.String?.sval;
  return typeof last === 'string' ? last.toLowerCase() : null;
}

/** The PostgreSQL target's read-only guard: PostgreSQL's own parser under the shared policy. */
export function checkPostgresSelect(sql: string): Promise<GuardVerdict> {
  return checkReadOnlySelect(sql, postgresParser);
}
