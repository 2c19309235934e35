/**
 * Spider's gold SQL is written for SQLite. It runs on DuckDB with two translations only, each where
 * SQLite reads the text differently: a double-quoted string that names no table or column is a
 * string literal in SQLite (DuckDB reads every double-quoted string as an identifier), and SQLite's
 * LIKE ignores the case of ASCII letters (DuckDB's ILIKE does, LIKE does not).
 */

interface Token {
  kind: 'single' | 'double' | 'other';
  text: string;
}

/** The query as quoted strings and the text between them (a quote doubled inside stays inside). */
function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let other = '';
  while (i < sql.length) {
    const ch = sql[i];
    if (ch !== "'" && ch !== '"') {
      other += ch;
      i++;
      continue;
    }
    if (other) out.push({ kind: 'other', text: other });
    other = '';
    let j = i + 1;
    let body = '';
    while (j < sql.length) {
      if (sql[j] === ch && sql[j + 1] === ch) {
        body += ch;
        j += 2;
      } else if (sql[j] === ch) break;
      else body += sql[j++];
    }
    out.push({ kind: ch === "'" ? 'single' : 'double', text: body });
    i = j + 1;
  }
  if (other) out.push({ kind: 'other', text: other });
  return out;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The gold query as DuckDB must read it to mean what SQLite meant: a double-quoted string becomes a
 * single-quoted literal unless it names one of `identifiers` (tables and columns, any case) and
 * follows no comparison; `LIKE` becomes `ILIKE`; a trailing `;` goes.
 */
export function spiderGoldForDuckDb(sql: string, identifiers: ReadonlySet<string>): string {
  const parts = tokens(sql.trim().replace(/;\s*$/, ''));
  return parts
    .map((t, k) => {
      if (t.kind === 'single') return literal(t.text);
      if (t.kind === 'double') {
        const before = parts[k - 1]?.kind === 'other' ? (parts[k - 1]?.text ?? '') : '';
        const afterComparison = /(=|<|>|\blike|\bin\s*\(|,)\s*$/i.test(before);
        return identifiers.has(t.text.toLowerCase()) && !afterComparison
          ? `"${t.text.replace(/"/g, '""')}"`
          : literal(t.text);
      }
      return sqliteJoinsForDuckDb(t.text.replace(/\blike\b/gi, 'ILIKE'), identifiers);
    })
    .join('');
}

/** Rough shapes of a query, most telling first: what kind of SQL an item needs. */
export const SQL_SHAPES = ['set-op', 'nested', 'join', 'group', 'order', 'aggregate', 'filter', 'plain'] as const;
export type SqlShape = (typeof SQL_SHAPES)[number];

/** The query's most telling shape ({@link SQL_SHAPES} order), read from its text outside literals. */
export function sqlShape(sql: string): SqlShape {
  const text = tokens(sql)
    .map((t) => (t.kind === 'other' ? t.text : ' ? '))
    .join('')
    .toLowerCase();
  if (/\b(union|intersect|except)\b/.test(text)) return 'set-op';
  if (/\(\s*select\b/.test(text)) return 'nested';
  if (/\bjoin\b/.test(text) || /\bfrom\s+[\w.]+(\s+(as\s+)?\w+)?\s*,/.test(text)) return 'join';
  if (/\bgroup\s+by\b/.test(text)) return 'group';
  if (/\border\s+by\b/.test(text)) return 'order';
  if (/\b(count|sum|avg|min|max)\s*\(/.test(text)) return 'aggregate';
  if (/\bwhere\b/.test(text)) return 'filter';
  return 'plain';
}

/** Words DuckDB reserves that Spider uses as table names (imdb's `cast`): quoted after FROM or JOIN. */
const RESERVED_TABLE_NAMES = new Set(['cast', 'order', 'group', 'table', 'check', 'column', 'default', 'end']);

/**
 * Two readings SQLite allows and DuckDB's parser does not: a JOIN with no ON (a cross join, its
 * condition given by a later ON: `A JOIN B JOIN C ON a = c AND b = c`) and a reserved word as a
 * table name (`FROM cast AS t1`).
 */
export function sqliteJoinsForDuckDb(text: string, identifiers: ReadonlySet<string>): string {
  const quoted = text.replace(/\b(from|join)(\s+)(\w+)\b/gi, (m, kw: string, space: string, name: string) =>
    RESERVED_TABLE_NAMES.has(name.toLowerCase()) && identifiers.has(name.toLowerCase()) ? `${kw}${space}"${name}"` : m,
  );
  return quoted.replace(
    /(?<!\b(?:left|right|inner|outer|cross|natural|full)\s+)\b(join\s+"?\w+"?(?:\s+as\s+\w+|\s+(?!on\b|join\b|where\b|group\b|order\b|limit\b)\w+)?)(?=\s+join\b)/gi,
    'CROSS $1',
  );
}
