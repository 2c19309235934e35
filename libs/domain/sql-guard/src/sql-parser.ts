// The PostgreSQL build only: the package root bundles every dialect's grammar (~2.5 MB).
import { Parser } from 'node-sql-parser/build/postgresql';

/** What node-sql-parser saw in a SQL-target query. */
export type ParserVerdict =
  | {
      parsed: true;
      /** Top-level statement types in order (`select`, `delete`, …). */
      statements: string[];
      /** Non-SELECT statements nested anywhere (a DML CTE), plus `SELECT INTO`, uppercased. */
      nestedWrites: string[];
    }
  | { parsed: false; error: string };

/** AST `type` values node-sql-parser uses for statements other than SELECT. */
const WRITE_TYPES = new Set([
  'alter',
  'call',
  'create',
  'declare',
  'delete',
  'desc',
  'drop',
  'exec',
  'grant',
  'insert',
  'load_data',
  'lock',
  'rename',
  'replace',
  'revoke',
  'set',
  'show',
  'transaction',
  'truncate',
  'unlock',
  'update',
  'use',
]);

let parser: Parser | undefined;

/**
 * Parses with node-sql-parser's PostgreSQL grammar (also used for DuckDB, whose grammar derives
 * from PostgreSQL's). A parse failure is not a verdict on the query: the grammar lacks common valid
 * syntax (DuckDB's `EXCLUDE`, `QUALIFY`, list literals; PostgreSQL's `AT TIME ZONE`), so callers
 * fall back to the lexer's stricter-than-needed checks and let the database judge the syntax.
 */
export function inspectWithParser(sql: string): ParserVerdict {
  parser ??= new Parser();
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'postgresql' });
  } catch (error) {
    return { parsed: false, error: error instanceof Error ? error.message : String(error) };
  }
  const roots = Array.isArray(ast) ? ast : [ast];
  const statements = roots.map((root) => {
    const type = (root as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? type : 'unknown';
  });
  return { parsed: true, statements, nestedWrites: collectWrites(roots) };
}

/**
 * Non-SELECT statements and `SELECT INTO` anywhere below the roots. Iterative, because the AST of
 * a long `a->b->c->…` chain is deeper than the call stack.
 */
function collectWrites(roots: unknown[]): string[] {
  const out: string[] = [];
  const stack: { node: unknown; isRoot: boolean }[] = roots.map((node) => ({ node, isRoot: true }));
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { node, isRoot } = stack.pop() as { node: unknown; isRoot: boolean };
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, isRoot: false });
      continue;
    }
    const record = node as Record<string, unknown>;
    const type = record['type'];
    if (!isRoot && typeof type === 'string' && WRITE_TYPES.has(type)) out.push(type.toUpperCase());
    if (type === 'select') {
      const into = record['into'] as { position?: unknown } | null | undefined;
      if (into && into.position) out.push('SELECT INTO');
    }
    for (const value of Object.values(record)) stack.push({ node: value, isRoot: false });
  }
  return out;
}
