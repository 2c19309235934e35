// How two requests differ when they are the same question with other values: "average temperature
// per device above 30" and "… above 25". Only literal values may differ — numbers (a duration's
// number too: "per 5 minutes"), quoted texts, dates, and words that are values of one column of the
// data — and every other word must be the same, in the same place. Anything else is another
// question, and nothing of the earlier plan is reused for it.

/** The kind of value a token holds; `word` is every other word (a value only if the data says so). */
export type RequestTokenKind = 'number' | 'quoted' | 'date' | 'word';

export interface RequestToken {
  kind: RequestTokenKind;
  /** As written (a quoted text without its quotes). */
  text: string;
}

/** What a value is compared as: numbers by their value, texts without case, dates as written. */
export type ValueClass = 'number' | 'text' | 'date';

/** One value the newer request changes: every occurrence of `from` became `to`. */
export interface ValueChange {
  kind: ValueClass;
  from: string;
  to: string;
}

export type ValueDiff = { ok: true; changes: ValueChange[] } | { ok: false; reason: string };

/**
 * Whether `from` and `to` are both values of one column of the data; the data's spelling of `to`
 * if so, else null.
 */
export type SameColumnValue = (from: string, to: string) => string | null;

// A quoted text; a date; a number standing alone or before a short unit ("10s", "5min" are a
// number and a word); a word (letters, digits, inner `-`, `.`, `'`: "dev-01", "o'brien").
// Punctuation between tokens says nothing about values and is skipped.
const TOKEN =
  /'([^']*)'|"([^"]*)"|(\d{4}-\d{2}-\d{2})(?![\p{L}\p{N}])|(-?\d+(?:\.\d+)?)(?![\p{N}.])(?=\p{L}{0,3}(?![\p{L}\p{N}])|[^\p{L}\p{N}_]|$)|([\p{L}\p{N}_](?:[\p{L}\p{N}_.'-]*[\p{L}\p{N}_])?)/gu;

/** The tokens of a request, in order. */
export function requestTokens(text: string): RequestToken[] {
  const tokens: RequestToken[] = [];
  for (const m of text.matchAll(TOKEN)) {
    if (m[1] !== undefined || m[2] !== undefined) tokens.push({ kind: 'quoted', text: m[1] ?? m[2] ?? '' });
    else if (m[3] !== undefined) tokens.push({ kind: 'date', text: m[3] });
    else if (m[4] !== undefined) tokens.push({ kind: 'number', text: m[4] });
    else if (m[5] !== undefined) tokens.push({ kind: 'word', text: m[5] });
  }
  return tokens;
}

/** The class a token's value is compared as; null for a word that is not a value. */
export function valueClassOf(kind: RequestTokenKind): ValueClass | null {
  return kind === 'number' ? 'number' : kind === 'date' ? 'date' : kind === 'quoted' ? 'text' : null;
}

/** A value as it is compared: `30`, `30.0` and `3e1` are one number; texts ignore case. */
export function valueKey(kind: ValueClass, value: string | number): string {
  if (kind === 'number') return `number:${Number(value)}`;
  return kind === 'text' ? `text:${String(value).toLowerCase()}` : `date:${String(value)}`;
}

/** How one position of the two requests compares: the same, a value changed, or another question. */
function comparePosition(
  a: RequestToken,
  b: RequestToken,
  sameColumnValue: SameColumnValue,
): ValueChange | 'same' | { refused: string } {
  if (a.kind !== b.kind) return { refused: `'${a.text}' and '${b.text}' are not the same kind of value` };
  if (a.kind === 'word') {
    if (a.text.toLowerCase() === b.text.toLowerCase()) return 'same';
    const spelled = sameColumnValue(a.text, b.text);
    return spelled === null
      ? { refused: `'${a.text}' and '${b.text}' are not values of one column` }
      : { kind: 'text', from: a.text, to: spelled };
  }
  const kind = valueClassOf(a.kind) ?? 'text';
  if (valueKey(kind, a.text) === valueKey(kind, b.text)) return 'same';
  return { kind, from: a.text, to: b.text };
}

/**
 * The values `now` changes in `earlier`, when the two are the same question; otherwise why not.
 * A value written twice must change the same way both times (else which one the plan's value
 * stands for is unknown), and no two different values may become one.
 */
export function valueDiff(earlier: string, now: string, sameColumnValue: SameColumnValue): ValueDiff {
  const a = requestTokens(earlier);
  const b = requestTokens(now);
  if (a.length !== b.length) return { ok: false, reason: 'the requests differ in more than values' };
  const changes = new Map<string, ValueChange>();
  const unchanged = new Set<string>();
  for (const [i, token] of a.entries()) {
    const other = b[i];
    const compared = comparePosition(token, other, sameColumnValue);
    if (compared !== 'same' && 'refused' in compared) return { ok: false, reason: compared.refused };
    const kind = valueClassOf(token.kind) ?? 'text';
    const key = valueKey(kind, token.text);
    if (compared === 'same') {
      unchanged.add(key);
      continue;
    }
    const before = changes.get(key);
    if (before && valueKey(kind, before.to) !== valueKey(kind, compared.to)) {
      return { ok: false, reason: `'${token.text}' changes in two ways` };
    }
    changes.set(key, compared);
  }
  for (const key of changes.keys()) {
    if (unchanged.has(key)) return { ok: false, reason: `'${changes.get(key)?.from}' changes in one place only` };
  }
  // Two values becoming one cannot be told apart again (the other way round, one value would
  // change in one place only), so neither direction is the same question.
  const targets = [...changes.values()].map((c) => valueKey(c.kind, c.to));
  if (new Set(targets).size !== targets.length || targets.some((t) => unchanged.has(t))) {
    return { ok: false, reason: 'two values become one' };
  }
  return { ok: true, changes: [...changes.values()] };
}
