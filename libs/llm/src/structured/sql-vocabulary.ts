/**
 * The names a generated SQL statement may use: what the grounded catalog really has. Streams and
 * columns are matched exactly (as the engine spells them); functions and keywords ignore case,
 * as SQL does.
 */
export interface SqlVocabulary {
  streams: readonly string[];
  columns: readonly string[];
  functions: readonly string[];
  /** Added to {@link DEFAULT_SQL_KEYWORDS}, e.g. dialect words from the engine's syntax catalog. */
  extraKeywords?: readonly string[];
}

/**
 * Reserved words and type names of the SELECT subset the targets accept (veloFlux, DuckDB,
 * PostgreSQL). Deliberately no DDL/DML words: a statement built from this vocabulary cannot
 * spell DROP, DELETE, INSERT or UPDATE, whatever the request says. `AS` is absent on purpose:
 * the grammar treats `AS <alias>` as one unit so that only right after AS may a new name appear.
 */
export const DEFAULT_SQL_KEYWORDS: readonly string[] = [
  'SELECT', 'DISTINCT', 'FROM', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'ASC', 'DESC', 'LIMIT',
  'OFFSET', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'BETWEEN', 'LIKE', 'ILIKE',
  'CASE', 'WHEN', 'THEN', 'ELSE', 'END', 'CAST', 'INTERVAL', 'OVER', 'PARTITION', 'FILTER', 'ROWS',
  'RANGE', 'PRECEDING', 'FOLLOWING', 'UNBOUNDED', 'CURRENT', 'ROW', 'JOIN', 'INNER', 'LEFT', 'RIGHT',
  'OUTER', 'ON', 'USING', 'NULLS', 'FIRST', 'LAST', 'EXTRACT', 'EPOCH',
  'MILLISECOND', 'MILLISECONDS', 'SECOND', 'SECONDS', 'MINUTE', 'MINUTES', 'HOUR', 'HOURS', 'DAY',
  'DAYS', 'WEEK', 'WEEKS', 'MONTH', 'MONTHS', 'YEAR', 'YEARS',
  'INTEGER', 'INT', 'BIGINT', 'DOUBLE', 'FLOAT', 'REAL', 'DECIMAL', 'NUMERIC', 'VARCHAR', 'TEXT',
  'BOOLEAN', 'TIMESTAMP', 'TIMESTAMPTZ', 'DATE', 'TIME', 'PRECISION',
]; // prettier-ignore

/**
 * Type names among the keywords (and dialects' extra keywords). The grammars admit them only in
 * type positions (after `::`, before a string literal as in `TIMESTAMP '…'`, or after AS); the
 * lexical check {@link unknownSqlIdentifiers} accepts them anywhere, as keywords.
 */
export const SQL_TYPE_WORDS: ReadonlySet<string> = new Set([
  'INTEGER', 'INT', 'BIGINT', 'SMALLINT', 'TINYINT', 'HUGEINT', 'UBIGINT', 'DOUBLE', 'FLOAT', 'REAL',
  'DECIMAL', 'NUMERIC', 'VARCHAR', 'TEXT', 'BOOLEAN', 'TIMESTAMP', 'TIMESTAMPTZ', 'DATE', 'TIME',
]); // prettier-ignore

const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` can be written without quotes (otherwise only its quoted form is allowed). */
export function isPlainSqlIdentifier(name: string): boolean {
  return WORD.test(name);
}

/** Keywords of a vocabulary, upper-cased and de-duplicated. */
export function sqlKeywordsOf(vocabulary: SqlVocabulary): string[] {
  return [...new Set([...DEFAULT_SQL_KEYWORDS, ...(vocabulary.extraKeywords ?? [])].map((k) => k.toUpperCase()))];
}

interface Token {
  kind: 'word' | 'quoted' | 'other';
  text: string;
}

/** A small SQL lexer: enough to find names, skipping string literals, numbers and comments. */
function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      // String literal with '' escapes: its content names nothing.
      i++;
      while (i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i++;
    } else if (c === '"' || c === '`') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end;
      tokens.push({ kind: 'quoted', text: sql.slice(i + 1, stop) });
      i = stop + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(sql.slice(i));
      i += m ? m[0].length : 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i));
      const text = m ? m[0] : c;
      tokens.push({ kind: 'word', text });
      i += text.length;
    } else {
      tokens.push({ kind: 'other', text: c });
      i++;
    }
  }
  return tokens;
}

/**
 * Names in `sql` that the vocabulary does not have: not a stream or column (exact), not a
 * function or keyword (any case), and not an alias the statement itself declares with `AS`.
 * Used to validate free SQL text (e.g. inside {@link reviseSchemaFor}'s `sql`) and by tests; it
 * is a lexical check, the engine's own validation stays the authority on meaning.
 */
export function unknownSqlIdentifiers(sql: string, vocabulary: SqlVocabulary): string[] {
  const tokens = tokenize(sql);
  const exact = new Set([...vocabulary.streams, ...vocabulary.columns]);
  const anyCase = new Set([...vocabulary.functions, ...sqlKeywordsOf(vocabulary)].map((n) => n.toUpperCase()));
  anyCase.add('AS');
  const aliases = new Set<string>();
  tokens.forEach((t, index) => {
    const previous = tokens[index - 1];
    if (t.kind !== 'other' && previous?.kind === 'word' && previous.text.toUpperCase() === 'AS') aliases.add(t.text);
  });
  const unknown: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'other') continue;
    if (exact.has(t.text) || aliases.has(t.text)) continue;
    if (t.kind === 'word' && anyCase.has(t.text.toUpperCase())) continue;
    if (!unknown.includes(t.text)) unknown.push(t.text);
  }
  return unknown;
}
