/**
 * Every gold query a sql-eval `query` field accepts, as sql-eval's `get_all_minimal_queries`
 * (eval/eval.py) expands it:
 * - the field may hold several queries separated by `;` (other acceptable answers, e.g. through
 *   other joins): each is a gold;
 * - in each, the first `{a.x,a.y}` lists columns of which any non-empty combination (in the listed
 *   order) is acceptable: one gold per combination, with `GROUP BY {}` after it grouped by the
 *   same columns.
 * Two differences, both where sql-eval would produce broken SQL: `;` inside a quoted literal does
 * not split, and each listed column is trimmed.
 */
export function expandGold(field: string): string[] {
  const out: string[] = [];
  for (const raw of splitOutsideQuotes(field, ';')) {
    const query = raw.trim();
    if (query === '') continue;
    const start = query.indexOf('{');
    const end = start < 0 ? -1 : query.indexOf('}', start + 1);
    if (start < 0 || end < 0) {
      out.push(query);
      continue;
    }
    const options = query
      .slice(start + 1, end)
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    const left = query.slice(0, start);
    const rightTemplate = query.slice(end + 1);
    for (const combination of combinations(options)) {
      const columns = combination.join(', ');
      out.push(left + columns + rightTemplate.split('GROUP BY {}').join(`GROUP BY ${columns}`));
    }
  }
  return out;
}

/** Non-empty combinations by size, then in the order of the list (Python's `itertools.combinations`). */
export function combinations<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  const pick = (size: number, from: number, acc: T[]) => {
    if (acc.length === size) {
      out.push([...acc]);
      return;
    }
    for (let i = from; i < items.length; i++) {
      acc.push(items[i]);
      pick(size, i + 1, acc);
      acc.pop();
    }
  };
  for (let size = 1; size <= items.length; size++) pick(size, 0, []);
  return out;
}

/**
 * A PostgreSQL gold as PostgreSQL types it, run on DuckDB: PostgreSQL's `float` without a
 * precision is `double precision`, DuckDB's is a 4-byte REAL, so a ratio cast to FLOAT would
 * lose digits there (0.055 becomes 0.0549999997, which rounds the other way at 2 decimals). The
 * type word is written DOUBLE outside quoted text; nothing else changes.
 */
export function pgFloatAsDouble(sql: string): string {
  // Split on every quote: odd parts are inside quoted text (a doubled quote leaves an empty part).
  return sql
    .split("'")
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(::\s*|\bAS\s+)float\b(?!\s*\()/gi, '$1DOUBLE')))
    .join("'");
}

/** Splits on `sep` outside single- and double-quoted text (quotes doubled inside stay quoted). */
export function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === sep) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Whether the outermost query orders its rows: an ORDER BY outside parentheses (a window's or a
 * subquery's ORDER BY does not order the result) and outside quoted text and comments.
 */
export function ordersResult(sql: string): boolean {
  let depth = 0;
  let quote: string | null = null;
  let top = '';
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
      top += ' ';
      continue;
    }
    if (ch === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      top += ' ';
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      top += ' ';
    } else if (ch === '(') {
      depth++;
      top += ' ';
    } else if (ch === ')') {
      depth--;
      top += ' ';
    } else {
      top += depth === 0 ? ch : ' ';
    }
  }
  return /\border\s+by\b/i.test(top);
}
