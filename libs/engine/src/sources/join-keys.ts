/**
 * Join keys from two sources rarely agree on spelling: an integer id on one side and a text
 * `'42'` on the other, padding, upper and lower case. Each join pair is matched under rules of
 * increasing reach and the least reaching rule that matches best is taken, shown to the person
 * as an assumption. When even the best rule matches less than half of either side's rows, the
 * join would silently drop most of the data: that is a question, not an answer.
 */
export type KeyRule = 'exact' | 'cast' | 'trim' | 'casefold';

export interface KeyVerdict {
  rule: KeyRule;
  /** The larger of the two sides' shares of rows (with a key) that find a partner; null when a side has none. */
  matchRate: number | null;
  /** Normalises one value under the rule (null stays null: it never joins). */
  normalise: (value: unknown) => string | null;
}

/** The share of rows that must find a partner on at least one side. */
export const MIN_KEY_MATCH = 0.5;

const NUMERIC = /^[+-]?\d+(\.\d+)?$/;

/** A preview value as text (previews hold JSON values: numbers, strings, booleans, null). */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const NORMALISERS: Record<KeyRule, (v: unknown) => string | null> = {
  exact: (v) => (v === null || v === undefined ? null : `${typeof v}:${valueText(v)}`),
  // A common type: numbers and numeric text compare as numbers (`42` = `'042'`), the rest as text.
  cast: (v) => {
    if (v === null || v === undefined) return null;
    const text = valueText(v);
    return NUMERIC.test(text) ? String(Number(text)) : text;
  },
  trim: (v) => {
    const cast = NORMALISERS.cast(typeof v === 'string' ? v.trim() : v);
    return cast === null ? null : cast.trim();
  },
  casefold: (v) => NORMALISERS.trim(v)?.toLowerCase() ?? null,
};

const ORDER: KeyRule[] = ['exact', 'cast', 'trim', 'casefold'];

/** The rule for one join pair, judged on the two sides' values. */
export function reconcileKeys(left: readonly unknown[], right: readonly unknown[]): KeyVerdict {
  let best: { rule: KeyRule; rate: number | null } = { rule: 'exact', rate: matchRate(left, right, NORMALISERS.exact) };
  for (const rule of ORDER.slice(1)) {
    const rate = matchRate(left, right, NORMALISERS[rule]);
    if (rate !== null && (best.rate === null || rate > best.rate + 1e-9)) best = { rule, rate };
  }
  return { rule: best.rule, matchRate: best.rate, normalise: NORMALISERS[best.rule] };
}

function matchRate(
  left: readonly unknown[],
  right: readonly unknown[],
  f: (v: unknown) => string | null,
): number | null {
  const l = left.map(f).filter((k): k is string => k !== null);
  const r = right.map(f).filter((k): k is string => k !== null);
  if (l.length === 0 || r.length === 0) return null;
  const ls = new Set(l);
  const rs = new Set(r);
  return Math.max(l.filter((k) => rs.has(k)).length / l.length, r.filter((k) => ls.has(k)).length / r.length);
}

/** The sentence shown with the answer for a rule other than `exact`. */
export function describeKeyRule(rule: KeyRule, left: string, right: string, rate: number | null): string | null {
  const share = rate === null ? '' : ` (${Math.round(rate * 100)} % of rows found a partner)`;
  switch (rule) {
    case 'exact':
      return null;
    case 'cast':
      return `${left} and ${right} have different types; they were compared as one type (numbers as numbers, else text)${share}.`;
    case 'trim':
      return `${left} and ${right} were compared with surrounding spaces removed${share}.`;
    case 'casefold':
      return `${left} and ${right} were compared ignoring case and surrounding spaces${share}.`;
  }
}
