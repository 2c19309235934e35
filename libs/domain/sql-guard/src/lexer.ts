/**
 * A small SQL tokenizer for dialect-agnostic checks (statement count, keywords, identifiers).
 *
 * Safety rule behind every choice below: the lexer must never see *less code* than a database
 * would. Where dialects disagree it takes the shortest reading of strings and comments, so text the
 * lexer treats as "inside a string or comment" is inside one for every engine we talk to:
 * - backslash is never an escape (`'a\'` ends at the second quote; E-strings are read as a word and
 *   a plain string, which only makes the string shorter);
 * - block comments do not nest (PostgreSQL nests them; reading them flat ends them earlier);
 * - a `--` comment ends at any line break character, not only `\n` (PostgreSQL also stops at `\r`);
 * - `$` never starts a string: dollar quoting (`$$…$$`, which PostgreSQL, DuckDB and sqlparser-rs
 *   all support) is reported as an unexpected character instead, so its content stays visible;
 * - backtick identifiers only exist where the engine has them (veloFlux), otherwise a backtick is an
 *   unexpected character and what follows it is lexed as code.
 */

export type TokenKind =
  /** Unquoted identifier or keyword, as written. */
  | 'word'
  /** Double-quoted or backtick-quoted identifier; `value` holds the unescaped name. */
  | 'quoted'
  /** Single-quoted string; `value` holds the unescaped content. */
  | 'string'
  | 'number'
  | 'operator'
  /** One of `( ) [ ] { } , ; .` */
  | 'punct'
  /** `-- …` or `/* … *\/`; kept so callers can tell comments from code, dropped by {@link significant}. */
  | 'comment'
  /** A character no SQL dialect we target accepts outside strings (`$`, `\`, a no-break space, …). */
  | 'unknown';

export interface Token {
  kind: TokenKind;
  /** The source text of the token, quotes included. */
  text: string;
  /** Identifier name or string content without quotes and with `''` / `""` escapes resolved. */
  value: string;
  /** Offset of the first character in the input. */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /** The delimiter of a `quoted` token. */
  quote?: '"' | '`';
}

/** Something the lexer could not read cleanly; the message is fit to show a model or a person. */
export interface LexProblem {
  kind: 'unterminated' | 'control-character' | 'unexpected-character';
  message: string;
  start: number;
}

export interface LexResult {
  /** Every token including comments, in source order; whitespace is dropped. */
  tokens: Token[];
  problems: LexProblem[];
}

export interface LexOptions {
  /** Whether `` `name` `` is a quoted identifier (veloFlux: yes; PostgreSQL and DuckDB: no). Default true. */
  backtickIdentifiers?: boolean;
}

/** Longest first, so `->>` wins over `->` and `::` over `:`. */
const OPERATORS = [
  '->>',
  '#>>',
  '!~*',
  '->',
  '#>',
  '||',
  '::',
  '<=',
  '>=',
  '<>',
  '!=',
  '==',
  '<<',
  '>>',
  '@>',
  '<@',
  '&&',
  '~*',
  '!~',
  ':=',
  '=>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<',
  '>',
  '!',
  '~',
  '^',
  '&',
  '|',
  '#',
  '@',
  ':',
  '?',
];

const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ';', '.']);

// `$` is deliberately not an identifier character: see the module comment on dollar quoting.
const WORD = /[\p{L}\p{M}_][\p{L}\p{M}\p{N}_]*/uy;
const NUMBER = /(?:0[xX][0-9a-fA-F]+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/y;
/** Characters that end a `--` comment in at least one engine (see the module comment). */
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/g;

const CHAR_NAMES: Record<string, string> = {
  '\u00a0': 'no-break space',
  '\u200b': 'zero-width space',
  '\u200c': 'zero-width non-joiner',
  '\u200d': 'zero-width joiner',
  '\u2028': 'line separator',
  '\u2029': 'paragraph separator',
  '\ufeff': 'byte order mark',
  '\u3000': 'ideographic space',
};

/** `U+00A0 (no-break space)`, for messages. */
export function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHAR_NAMES[ch];
  if (name) return `${hex} (${name})`;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `${hex} (control character)`;
  return `'${ch}' (${hex})`;
}

function isControl(code: number): boolean {
  // Tab, LF and CR are ordinary whitespace; every other C0/C1 control character is refused.
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * Splits SQL text into tokens. Never throws: malformed input (an unterminated string, a control
 * character, a stray `$`) is reported in `problems` and lexing goes on, so callers can still look at
 * the rest of the text.
 */
export function tokenize(sql: string, options: LexOptions = {}): LexResult {
  const backticks = options.backtickIdentifiers ?? true;
  const tokens: Token[] = [];
  const problems: LexProblem[] = [];
  const push = (kind: TokenKind, start: number, end: number, value?: string, quote?: '"' | '`'): void => {
    const text = sql.slice(start, end);
    tokens.push(
      quote
        ? { kind, text, value: value ?? text, start, end, quote }
        : { kind, text, value: value ?? text, start, end },
    );
  };

  // Control characters are reported wherever they are, strings and comments included: they are
  // never needed in a query and some drivers truncate at NUL.
  for (let i = 0; i < sql.length; i++) {
    const code = sql.charCodeAt(i);
    if (isControl(code)) {
      problems.push({
        kind: 'control-character',
        message: `control character ${describeChar(sql[i] ?? '')} at offset ${i}; remove it`,
        start: i,
      });
    }
  }

  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] ?? '';
    const next = sql[i + 1] ?? '';

    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if (isControl(ch.charCodeAt(0))) {
      // Already reported above; skip it like whitespace so the rest still lexes.
      i++;
      continue;
    }

    if (ch === '-' && next === '-') {
      LINE_BREAK.lastIndex = i + 2;
      const m = LINE_BREAK.exec(sql);
      const end = m ? m.index : sql.length;
      push('comment', i, end);
      i = end;
      continue;
    }
    if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      if (close === -1) {
        problems.push({
          kind: 'unterminated',
          message: `unterminated block comment starting at offset ${i}; close it with */ or remove it`,
          start: i,
        });
        push('comment', i, sql.length);
        i = sql.length;
      } else {
        push('comment', i, close + 2);
        i = close + 2;
      }
      continue;
    }

    if (ch === '*' && next === '/') {
      // Never valid outside a comment; usually the tail of a comment whose `/*` went missing.
      problems.push({
        kind: 'unexpected-character',
        message: `'*/' at offset ${i} closes no comment; remove it or open the comment with /*`,
        start: i,
      });
      push('unknown', i, i + 2);
      i += 2;
      continue;
    }

    if (ch === "'" || ch === '"' || (ch === '`' && backticks)) {
      const end = scanQuoted(sql, i, ch);
      const body = sql.slice(i + 1, end === -1 ? sql.length : end - 1);
      const value = body.split(ch + ch).join(ch);
      if (end === -1) {
        const what = ch === "'" ? 'string literal' : 'quoted identifier';
        problems.push({
          kind: 'unterminated',
          message: `unterminated ${what} starting at offset ${i}; close it with ${ch}`,
          start: i,
        });
        if (ch === "'") push('string', i, sql.length, value);
        else push('quoted', i, sql.length, value, ch);
        i = sql.length;
      } else {
        if (ch === "'") push('string', i, end, value);
        else push('quoted', i, end, value, ch);
        i = end;
      }
      continue;
    }

    WORD.lastIndex = i;
    const word = WORD.exec(sql);
    if (word) {
      push('word', i, i + word[0].length);
      i += word[0].length;
      continue;
    }

    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(next) && !endsOperand(tokens[tokens.length - 1], i))) {
      NUMBER.lastIndex = i;
      const num = NUMBER.exec(sql);
      if (num) {
        push('number', i, i + num[0].length);
        i += num[0].length;
        continue;
      }
    }

    if (PUNCT.has(ch)) {
      push('punct', i, i + 1);
      i++;
      continue;
    }

    const op = OPERATORS.find((candidate) => sql.startsWith(candidate, i));
    if (op) {
      push('operator', i, i + op.length);
      i += op.length;
      continue;
    }

    // Whole code point, so an astral character is one token, not two halves.
    const cp = String.fromCodePoint(sql.codePointAt(i) ?? 0);
    const hint =
      ch === '$'
        ? '; dollar-quoted strings and $ parameters are not supported, use single-quoted literals'
        : ch === '`'
          ? '; quote identifiers with double quotes'
          : /\s/u.test(cp)
            ? '; replace it with a plain space'
            : '';
    problems.push({
      kind: 'unexpected-character',
      message: `unexpected character ${describeChar(cp)} at offset ${i}${hint}`,
      start: i,
    });
    push('unknown', i, i + cp.length);
    i += cp.length;
  }
  return { tokens, problems };
}

/** Index just past the closing quote, or -1 when the quote is never closed. Doubled quotes escape. */
function scanQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/** Whether `prev` directly touches `offset` and ends an operand (so `t.5` is not read as `t` `.5`). */
function endsOperand(prev: Token | undefined, offset: number): boolean {
  if (!prev || prev.end !== offset) return false;
  return prev.kind === 'word' || prev.kind === 'quoted' || prev.text === ')' || prev.text === ']';
}

/** The tokens without comments. */
export function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'comment');
}

/**
 * Splits significant tokens into statements at every `;`, whatever the nesting: no SELECT needs a
 * semicolon outside a string, so one inside parentheses is treated as a separator too. Empty
 * statements (`SELECT 1;;`, a trailing `; -- done`) are dropped.
 */
export function splitStatements(tokens: readonly Token[]): Token[][] {
  const statements: Token[][] = [];
  let current: Token[] = [];
  for (const token of significant(tokens)) {
    if (token.kind === 'punct' && token.text === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

/** Whether `token` is the unquoted word `word` (case-insensitive), e.g. `isWord(t, 'select')`. */
export function isWord(token: Token | undefined, ...words: string[]): boolean {
  if (!token || token.kind !== 'word') return false;
  const lower = token.text.toLowerCase();
  return words.includes(lower);
}

/** Whether `token` is the operator or punctuation `text`. */
export function isSymbol(token: Token | undefined, text: string): boolean {
  return !!token && (token.kind === 'punct' || token.kind === 'operator') && token.text === text;
}
