/**
 * Words a statement can start with. Statements other than SELECT are kept on purpose: extraction
 * only finds the SQL, and prevalidation then rejects a DELETE with a message the model can act on.
 */
const STATEMENT_START =
  /^(?:select|with|from|insert|update|delete|merge|drop|create|alter|truncate|grant|revoke|copy|attach|detach|pragma|explain|values|call|set|show|describe|install|load)\b/i;

/** A fenced block: ```sql … ```, ``` … ```, ~~~ … ~~~; the closing fence may be missing (truncated answer). */
const FENCE = /(```|~~~)[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*\1|$)/g;

/** Inline code in prose: `SELECT a FROM s`. */
const INLINE_CODE = /`([^`\n]+)`/g;

/**
 * A keyword is taken as the start of SQL only when written in one case (`SELECT`, `select`), not
 * capitalized like a sentence ("Select the stream you want…", "With this query…").
 */
function looksLikeSqlKeyword(word: string): boolean {
  return word === word.toUpperCase() || word === word.toLowerCase();
}

/** Offset where SQL starts in prose: a statement keyword at a line start, after "…:" or after a comment, or -1. */
function findSqlStart(text: string): number {
  for (const m of text.matchAll(/(^|\n|:[ \t]*|\*\/[ \t]*)[ \t]*([A-Za-z]+)\b/g)) {
    const word = m[2] ?? '';
    if (STATEMENT_START.test(word) && looksLikeSqlKeyword(word)) return (m.index ?? 0) + m[0].length - word.length;
  }
  return -1;
}

/** A line that reads as a sentence or markdown, not as SQL. */
function isProseLine(line: string): boolean {
  const first = line.trim();
  if (/^(?:[*#>]|\d+\.\s|-\s)/.test(first)) return true; // markdown: emphasis, heading, quote, list
  return (
    /^[A-Z][a-z]+[\s,:]/.test(first) && // a capitalized word…
    !/^(?:And|Or|Not|On|As|By|When|Then|Else|End)\b/.test(first) &&
    first.split(/\s+/).length >= 3 // …starting a sentence, unlike a column list line `Temperature,`
  );
}

/**
 * Cuts explanation that follows the SQL ("This query averages…") when it starts after a blank line
 * or after a line ending in `;`. SQL itself rarely has blank lines, and where it has, the next line
 * starts with a keyword, a name or a symbol rather than a sentence.
 */
function cutTrailingProse(sql: string): string {
  const lines = sql.split('\n');
  const kept: string[] = [];
  let boundary = false;
  for (const line of lines) {
    if (boundary && line.trim() !== '' && isProseLine(line)) break;
    kept.push(line);
    if (line.trim() === '' || /;\s*$/.test(line)) boundary = true;
    else boundary = false;
  }
  return kept.join('\n');
}

/** Strips trailing semicolons and whitespace, repeatedly (`SELECT 1; ;\n` → `SELECT 1`). */
function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/u, '');
}

/**
 * Extracts the SQL from a model answer: the content of the first ```sql fence (or any fence, or an
 * inline `code` span holding a statement), else the text from the first statement keyword on, with
 * leading prose ("Here is the SQL:"), trailing explanation, trailing semicolons and surrounding
 * whitespace removed. A leading byte order mark is dropped. Nothing else inside the SQL is changed.
 *
 * @returns The SQL text, or `''` when the answer holds no statement at all (plain prose).
 */
export function extractSql(text: string): string {
  const input = text.replace(/^\ufeff/, '');

  const fences = [...input.matchAll(FENCE)];
  const preferred =
    fences.find((m) => /^(?:sql|postgres(?:ql)?|duckdb|psql)$/i.test(m[2] ?? '') && (m[3] ?? '').trim()) ??
    fences.find((m) => STATEMENT_START.test((m[3] ?? '').trim())) ??
    fences.find((m) => (m[3] ?? '').trim());
  if (preferred) return stripTrailingSemicolons((preferred[3] ?? '').replace(/(?:```|~~~)\s*$/, '').trim());
  const oneLine = /```(?:sql\b)?[ \t]*([^`\n][^`]*?)```/i.exec(input);
  if (oneLine && STATEMENT_START.test((oneLine[1] ?? '').trim()))
    return stripTrailingSemicolons((oneLine[1] ?? '').trim());

  const start = findSqlStart(input);
  if (start !== -1) return stripTrailingSemicolons(cutTrailingProse(input.slice(start)).trim());

  // Inline code is the last resort: it needs at least two words, so "use `SELECT`" is not SQL.
  for (const m of input.matchAll(INLINE_CODE)) {
    const code = (m[1] ?? '').trim();
    if (STATEMENT_START.test(code) && /\s/.test(code) && looksLikeSqlKeyword(code.split(/\W/)[0] ?? '')) {
      return stripTrailingSemicolons(code);
    }
  }
  return '';
}
