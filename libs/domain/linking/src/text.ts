import pluralize from 'pluralize';
import { wordTable } from './word-table';

/**
 * One token of a request. Hyphens, underscores and slashes between word characters are not tokens
 * of their own: they set `joined` on the token after them, so `dev-03`, `unit_price` and
 * `10-minute` tokenise the same way as the catalog's names and values do.
 */
export interface Token {
  /** Position among the tokens. */
  i: number;
  text: string;
  /** Lower case, diacritics removed, a trailing `'s` dropped. */
  norm: string;
  /** Character offsets in the request. */
  start: number;
  end: number;
  kind: 'word' | 'number' | 'punct';
  /** Glued to the previous token by `-`, `_`, `/` or a camelCase boundary. */
  joined: boolean;
}

const TOKEN = /\d+(?:\.\d+)?|[\p{L}][\p{L}\p{N}]*(?:['’][\p{L}]+)?|\S/gu;

/** Lower case without diacritics, so `García` in a request matches `garcia` and vice versa. */
export function fold(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let prevEnd = -2;
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const start = m.index;
    // Separators are not tokens: they only glue their neighbours (prevEnd stays on the word).
    if (/^[-_/]$/.test(raw)) continue;
    const kind: Token['kind'] = /^\d/.test(raw) ? 'number' : /^[\p{L}]/u.test(raw) ? 'word' : 'punct';
    const sep = text[start - 1];
    const glued = kind !== 'punct' && prevEnd === start - 1 && sep !== undefined && /[-_/]/.test(sep);
    // camelCase identifiers typed verbatim (`pickupTs`) split like catalog names do.
    const pieces = kind === 'word' ? splitCamel(raw) : [raw];
    let offset = start;
    pieces.forEach((piece, k) => {
      out.push({
        i: out.length,
        text: piece,
        norm: fold(piece)
          .replace(/['’]s$/, '')
          .replace(/['’]$/, ''),
        start: offset,
        end: offset + piece.length,
        kind,
        joined: k > 0 || glued,
      });
      offset += piece.length;
    });
    prevEnd = kind === 'punct' ? -2 : start + raw.length;
  }
  return out;
}

function splitCamel(word: string): string[] {
  return word.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u).filter(Boolean);
}

/** `unit_price`, `pickupTs`, `PU-Borough` → their lower-case words. */
export function identifierWords(name: string): string[] {
  return splitCamel(name)
    .flatMap((p) => p.split(/[^\p{L}\p{N}]+/u))
    .filter(Boolean)
    .map(fold);
}

/** A value's words as a request would tokenise them (`Office Chair` → office, chair). */
/** Quote marks and the mark that closes each. */
export const QUOTES: Readonly<Record<string, string>> = { "'": "'", '"': '"', '“': '”', '‘': '’', '`': '`' };

/** The spans said between quote marks (`"On Road"`): [first token inside, token after the last). */
export function quotedSpans(tokens: readonly Token[]): [start: number, end: number][] {
  const spans: [number, number][] = [];
  for (let k = 0; k < tokens.length; k++) {
    const close = QUOTES[tokens[k]?.text ?? ''];
    if (!close) continue;
    const j = tokens.findIndex((t, at) => at > k && t.text === close);
    if (j < 0) break;
    if (j > k + 1) spans.push([k + 1, j]);
    k = j;
  }
  return spans;
}

export function valueWords(value: string): string[] {
  return tokenize(value)
    .filter((t) => t.kind !== 'punct')
    .map((t) => t.norm);
}

const singularCache = new Map<string, string>();

/** Singular of a word; numbers and very short words stay as they are (`us`, `ts`, `id`). */
export function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word.replace(/^(id|ts)s$/, '$1');
  let s = singularCache.get(word);
  if (s === undefined) {
    s = pluralize.singular(word);
    singularCache.set(word, s);
  }
  return s;
}

export function isPlural(word: string): boolean {
  return singular(word) !== word;
}

/**
 * A crude stem (ordered → order, installed → install, shipping → ship): only used for weak
 * matches a proper noun phrase would beat.
 */
export function stem(word: string): string {
  let w = singular(word);
  for (const suffix of ['ings', 'ing', 'ed', 'es', 'ly', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // cancelled → cancel, shipped → ship
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
  return w;
}

const WORD_NUMBERS: Record<string, number> = wordTable({
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  hundred: 100,
  thousand: 1000,
  a: 1,
  an: 1,
  single: 1,
  dozen: 12,
});

/** The number a token spells (`30`, `9.5`, `five`); `a`/`an` only when `article` is allowed. */
export function numberOf(token: Token | undefined, article = false): number | null {
  if (!token) return null;
  if (token.kind === 'number') return Number(token.norm);
  if ((token.norm === 'a' || token.norm === 'an' || token.norm === 'single') && !article) return null;
  return WORD_NUMBERS[token.norm] ?? null;
}
