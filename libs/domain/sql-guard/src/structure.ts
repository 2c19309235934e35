import { HARD_KEYWORDS } from './keywords';
import { isSymbol, isWord, type Token } from './lexer';

/** Bracket structure of one statement's significant tokens. */
export interface Structure {
  toks: Token[];
  /** Nesting depth; an opening bracket has the outer depth, its content one more. */
  depth: number[];
  /** Index of the matching bracket for `( ) [ ] { }`, -1 elsewhere or when unmatched. */
  partner: number[];
  /** Unbalanced brackets, as messages. */
  problems: string[];
}

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

export function buildStructure(toks: Token[]): Structure {
  const depth: number[] = [];
  const partner: number[] = toks.map(() => -1);
  const problems: string[] = [];
  const stack: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.kind === 'punct' && OPEN[t.text]) {
      depth.push(stack.length);
      stack.push(i);
    } else if (t.kind === 'punct' && CLOSE[t.text]) {
      const open = stack[stack.length - 1];
      if (open === undefined || toks[open]?.text !== CLOSE[t.text]) {
        problems.push(`unbalanced brackets: '${t.text}' at offset ${t.start} has no matching '${CLOSE[t.text]}'`);
        depth.push(stack.length);
        continue;
      }
      stack.pop();
      partner[open] = i;
      partner[i] = open;
      depth.push(stack.length);
    } else {
      depth.push(stack.length);
    }
  }
  for (const open of stack) {
    const t = toks[open];
    problems.push(`unbalanced brackets: '${t.text}' at offset ${t.start} is never closed with '${OPEN[t.text]}'`);
  }
  return { toks, depth, partner, problems };
}

/** Lowercased text of a word token, '' for anything else. */
export function lowerWord(t: Token | undefined): string {
  return t && t.kind === 'word' ? t.text.toLowerCase() : '';
}

/** An identifier: a quoted name, or a word that is not a hard keyword. */
export function isIdentifier(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'quoted') return true;
  return t.kind === 'word' && !HARD_KEYWORDS.has(t.text.toLowerCase());
}

/** The name an identifier token denotes: the unquoted value, or the word as written. */
export function nameOf(t: Token): string {
  return t.kind === 'quoted' ? t.value : t.text;
}

/**
 * Whether `t` can end an operand, so that an identifier right after it is an alias (`sum(a) total`,
 * `FROM s x`) or a keyword-ish word (`'1' DAY`), never a column reference.
 */
export function endsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  switch (t.kind) {
    case 'quoted':
    case 'string':
    case 'number':
      return true;
    case 'punct':
      return t.text === ')' || t.text === ']';
    case 'word': {
      const lower = t.text.toLowerCase();
      if (lower === 'end' || lower === 'null' || lower === 'true' || lower === 'false') return true;
      return !HARD_KEYWORDS.has(lower);
    }
    default:
      return false;
  }
}

/** `E'…'`, `N'…'`, `X'…'`, `B'…'`: a one-letter word touching a string is a literal prefix, not a name. */
export function isStringPrefix(t: Token, next: Token | undefined): boolean {
  return t.kind === 'word' && /^(?:[enxbu]|u&)$/i.test(t.text) && next?.kind === 'string' && next.start === t.end;
}

/**
 * Splits `[from, to)` at commas of depth `depth` into item ranges (`[start, end)` pairs).
 * Used for SELECT items, GROUP BY keys and function arguments.
 */
export function splitItems(s: Structure, from: number, to: number, depth: number): [number, number][] {
  const items: [number, number][] = [];
  let start = from;
  for (let i = from; i < to; i++) {
    if (s.depth[i] === depth && isSymbol(s.toks[i], ',')) {
      items.push([start, i]);
      start = i + 1;
    }
  }
  if (to > start) items.push([start, to]);
  return items;
}

/** Source-like text of a token range with whitespace dropped, for textual comparisons. */
export function compactText(toks: readonly Token[], from: number, to: number): string {
  return toks
    .slice(from, to)
    .map((t) => t.text)
    .join('');
}

/** Readable text of a token range (single spaces between tokens), for messages. */
export function spacedText(toks: readonly Token[], from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const tight =
      i === from ||
      isSymbol(t, ')') ||
      isSymbol(t, ']') ||
      isSymbol(t, ',') ||
      isSymbol(t, '.') ||
      isSymbol(t, '->') ||
      isSymbol(prev, '(') ||
      isSymbol(prev, '[') ||
      isSymbol(prev, '.') ||
      isSymbol(prev, '->') ||
      ((isSymbol(t, '(') || isSymbol(t, '[')) &&
        (prev?.kind === 'word' || prev?.kind === 'quoted' || isSymbol(prev, ']')));
    out += (tight ? '' : ' ') + t.text;
  }
  return out;
}

/** `GROUP BY`, `ORDER BY`, `PARTITION BY`: whether `toks[i]` is `word` followed by BY. */
export function isWordBy(toks: readonly Token[], i: number, word: string): boolean {
  return isWord(toks[i], word) && isWord(toks[i + 1], 'by');
}
