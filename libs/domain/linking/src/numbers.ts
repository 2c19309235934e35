import type { CompareOp } from '@nl2p/query-plan';
import { CONCEPTS } from './lexicon';
import { numberOf, type Token } from './text';

/** Words that may follow a number as its unit. Time units are left to time.ts. */
const UNIT_WORDS = new Set([
  'degree',
  'degrees',
  '°',
  '°c',
  '°f',
  'celsius',
  'fahrenheit',
  'percent',
  'percentage',
  '%',
  'pct',
  'km',
  'kmh',
  'kph',
  'mph',
  'kg',
  'kilograms',
  'g',
  'grams',
  'pounds',
  'lbs',
  'tons',
  'miles',
  'meters',
  'metres',
  'm',
  'cm',
  'mm',
  'dollars',
  'dollar',
  'euros',
  'euro',
  'usd',
  'eur',
  'gbp',
  'cents',
  'bucks',
  'volts',
  'v',
  'watts',
  'w',
  'kwh',
]);
const CURRENCY_SIGNS = new Set(['$', '€', '£']);

/** Comparison cues read backwards from the number: longest first. */
const CUES: [string[], CompareOp][] = [
  [['not', 'more', 'than'], '<='],
  [['no', 'more', 'than'], '<='],
  [['not', 'less', 'than'], '>='],
  [['no', 'less', 'than'], '>='],
  [['no', 'fewer', 'than'], '>='],
  [['not', 'above'], '<='],
  [['not', 'over'], '<='],
  [['not', 'below'], '>='],
  [['not', 'under'], '>='],
  [['not', 'equal', 'to'], '!='],
  [['different', 'from'], '!='],
  [['other', 'than'], '!='],
  [['greater', 'than', 'or', 'equal', 'to'], '>='],
  [['less', 'than', 'or', 'equal', 'to'], '<='],
  [['more', 'than'], '>'],
  [['greater', 'than'], '>'],
  [['higher', 'than'], '>'],
  [['larger', 'than'], '>'],
  [['bigger', 'than'], '>'],
  [['in', 'excess', 'of'], '>'],
  [['less', 'than'], '<'],
  [['fewer', 'than'], '<'],
  [['lower', 'than'], '<'],
  [['smaller', 'than'], '<'],
  [['at', 'least'], '>='],
  [['at', 'most'], '<='],
  [['up', 'to'], '<='],
  [['minimum', 'of'], '>='],
  [['maximum', 'of'], '<='],
  [['north', 'of'], '>'],
  [['east', 'of'], '>'],
  [['south', 'of'], '<'],
  [['west', 'of'], '<'],
  [['equal', 'to'], '='],
  [['equals'], '='],
  [['equal'], '='],
  [['exactly'], '='],
  [['above'], '>'],
  [['over'], '>'],
  [['exceeds'], '>'],
  [['exceeding'], '>'],
  [['exceeded'], '>'],
  [['exceed'], '>'],
  [['beyond'], '>'],
  [['below'], '<'],
  [['under'], '<'],
  [['beneath'], '<'],
  [['>'], '>'],
  [['<'], '<'],
  [['='], '='],
];
/** Cues after the number: `4 or more`, `25 and below`. */
const POSTFIX: [string[], CompareOp][] = [
  [['or', 'more'], '>='],
  [['or', 'greater'], '>='],
  [['or', 'higher'], '>='],
  [['or', 'above'], '>='],
  [['and', 'above'], '>='],
  [['and', 'up'], '>='],
  [['or', 'over'], '>='],
  [['or', 'less'], '<='],
  [['or', 'fewer'], '<='],
  [['or', 'lower'], '<='],
  [['or', 'below'], '<='],
  [['and', 'below'], '<='],
  [['or', 'under'], '<='],
];
/** Comparatives that are not in {@link CONCEPTS}: `older than`, `longer than` are. */
const MORE = new Set(['more', 'greater', 'higher', 'larger', 'bigger', 'longer', 'later', 'newer', 'above']);
const LESS = new Set(['less', 'fewer', 'lower', 'smaller', 'shorter', 'earlier', 'below']);

export interface FoundComparison {
  /** Token range of the whole comparison (cue … number … unit). */
  start: number;
  end: number;
  op: CompareOp | 'between';
  value: number;
  high: number | null;
  unit: string | null;
  /** Where the cue starts: the subject is before it, or between cue and number. */
  cueStart: number;
  cueEnd: number;
  numberAt: number;
  /** End of the number and its unit. */
  numberEnd: number;
  /** Where a trailing cue starts (`or more`), or null. */
  postfixAt: number | null;
  /** A comparative adjective (`faster`) or unit (`degrees`) that says what is compared. */
  hintWords: string[];
}

export interface FoundNumber {
  at: number;
  end: number;
  value: number;
  unit: string | null;
}

function matchesBackward(tokens: readonly Token[], endAt: number, words: string[]): boolean {
  const s = endAt - words.length + 1;
  if (s < 0) return false;
  return words.every((w, k) => tokens[s + k]?.norm === w);
}

/** The number at `i` and its unit, or null when `i` is not a quantity (`dev-03`, `TH-300`). */
export function numberAt(tokens: readonly Token[], i: number): FoundNumber | null {
  const t = tokens[i];
  if (!t) return null;
  const value = numberOf(t);
  if (value === null) return null;
  // Part of an identifier: glued to a preceding word.
  if (t.kind === 'number' && t.joined && tokens[i - 1]?.kind === 'word') return null;
  let end = i + 1;
  let unit: string | null = null;
  const next = tokens[i + 1];
  if (next && UNIT_WORDS.has(next.norm)) {
    unit = next.norm;
    end = i + 2;
    // km/h
    if (next.norm === 'km' && tokens[i + 2]?.norm === 'h' && tokens[i + 2]?.joined) {
      unit = 'km/h';
      end = i + 3;
    }
  } else if (CURRENCY_SIGNS.has(tokens[i - 1]?.norm ?? '')) {
    unit = tokens[i - 1]?.norm ?? null;
  }
  return { at: i, end, value, unit };
}

/**
 * Every comparison with a number: `above 30 degrees`, `a quantity of at least 4`, `faster than
 * 120`, `north of latitude 50` (the column may sit between cue and number), `between 10 and 20`,
 * `4 or more`. `taken` holds tokens that already belong to dates, limits or windows.
 */
export function findComparisons(tokens: readonly Token[], taken: ReadonlySet<number>): FoundComparison[] {
  const out: FoundComparison[] = [];
  const used = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i) || used.has(i)) continue;
    const n = numberAt(tokens, i);
    if (!n) continue;
    // A spelled number (`at least one`) counts only right after a cue.
    if (tokens[i]?.kind !== 'number' && !CUES.some(([words]) => matchesBackward(tokens, i - 1, words))) continue;
    // between N and M / from N to M
    const prev = tokens[i - 1]?.norm;
    if (prev === 'between' || prev === 'from') {
      const joiner = tokens[n.end]?.norm;
      const m = numberAt(tokens, n.end + 1);
      if ((joiner === 'and' || joiner === 'to') && m && !taken.has(n.end + 1)) {
        out.push({
          start: i - 1,
          end: m.end,
          op: 'between',
          value: n.value,
          high: m.value,
          unit: m.unit ?? n.unit,
          cueStart: i - 1,
          cueEnd: i,
          numberAt: i,
          numberEnd: m.end,
          postfixAt: null,
          hintWords: [m.unit ?? n.unit ?? ''].filter(Boolean),
        });
        for (let k = i - 1; k < m.end; k++) used.add(k);
        continue;
      }
    }
    // Look back for a cue, allowing up to three words (a column) between cue and number.
    let found: { op: CompareOp; start: number; end: number; hint: string[] } | null = null;
    for (let back = 0; back <= 3 && !found; back++) {
      const endAt = i - 1 - back;
      if (endAt < 0) break;
      if (back > 0 && (tokens[endAt + 1]?.kind === 'punct' || taken.has(endAt + 1))) break;
      for (const [words, op] of CUES) {
        if (matchesBackward(tokens, endAt, words)) {
          found = { op, start: endAt - words.length + 1, end: endAt + 1, hint: [] };
          break;
        }
      }
      // X-er than: faster than, hotter than, older than
      if (!found && tokens[endAt]?.norm === 'than') {
        const adj = tokens[endAt - 1]?.norm ?? '';
        const concept = CONCEPTS.get(adj);
        const op: CompareOp | null = MORE.has(adj)
          ? '>'
          : LESS.has(adj)
            ? '<'
            : concept?.direction === 'desc'
              ? '>'
              : concept?.direction === 'asc'
                ? '<'
                : null;
        if (op) found = { op, start: endAt - 1, end: endAt + 1, hint: concept ? [adj] : [] };
      }
    }
    let op = found?.op ?? null;
    let end = n.end;
    let postfixAt: number | null = null;
    // `4 or more`, `3 passengers or more`
    for (const at of [n.end, n.end + 1]) {
      if (postfixAt !== null || (at > n.end && tokens[n.end]?.kind !== 'word')) break;
      for (const [words, postOp] of POSTFIX) {
        if (words.every((w, k) => tokens[at + k]?.norm === w)) {
          op = postOp;
          end = at + words.length;
          postfixAt = at;
          break;
        }
      }
    }
    if (!op) continue;
    const start = found?.start ?? i;
    if (found?.start !== undefined && (found.start < 0 || range(found.start, found.end).some((k) => taken.has(k))))
      continue;
    // "not above": negated cues were matched whole; a "not" right before flips a plain cue.
    if (found && tokens[found.start - 1]?.norm === 'not' && found.op === op) op = negate(op);
    out.push({
      start,
      end,
      op,
      value: n.value,
      high: null,
      unit: n.unit,
      cueStart: found?.start ?? i,
      cueEnd: found?.end ?? i,
      numberAt: i,
      numberEnd: n.end,
      postfixAt,
      hintWords: [...(found?.hint ?? []), ...(n.unit ? [n.unit] : [])],
    });
    for (let k = start; k < n.end; k++) used.add(k);
    for (let k = postfixAt ?? end; k < end; k++) used.add(k);
  }
  return out;
}

function negate(op: CompareOp): CompareOp {
  switch (op) {
    case '>':
      return '<=';
    case '>=':
      return '<';
    case '<':
      return '>=';
    case '<=':
      return '>';
    case '=':
      return '!=';
    case '!=':
      return '=';
  }
}

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);
