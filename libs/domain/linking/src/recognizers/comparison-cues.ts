import type { CompareOp } from '@nl2p/query-plan';
import { CONCEPTS } from '../lexicon';
import type { Token } from '../text';
import { numberAt, type FoundNumber } from './numbers';
import { range, take, type LinkRule } from './rule';

/**
 * Comparisons with a number: the cue, the number and its unit (`above 30 degrees`, `at least 4`,
 * `between 10 and 20`, `4 or more`). A column said between cue and number (`north of latitude
 * 50`) stays free for the terms; what the comparison is about is found later (comparisons).
 */
export const comparisonCues: LinkRule = {
  name: 'comparison-cues',
  apply(s) {
    s.comparisonCues = findComparisons(s.tokens, s.taken);
    for (const c of s.comparisonCues) {
      take(s, range(c.cueStart, c.cueEnd));
      take(s, range(c.numberAt, c.numberEnd));
      if (c.postfixAt !== null) take(s, range(c.postfixAt, c.end));
    }
  },
};

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
  // A date after `after` is a time range (read before this); a number is an order of values (`after season 2007`).
  [['after'], '>'],
  [['before'], '<'],
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

/** A comparison found, and the tokens it uses (not read again as another comparison's number). */
interface Found {
  comparison: FoundComparison;
  used: number[];
}

function matchesBackward(tokens: readonly Token[], endAt: number, words: string[]): boolean {
  const s = endAt - words.length + 1;
  if (s < 0) return false;
  return words.every((w, k) => tokens[s + k]?.norm === w);
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
    // A spelled number (`at least one`, `two or more`) counts only right after a cue or before a trailing one.
    const cued = CUES.some(([words]) => matchesBackward(tokens, i - 1, words)) || !!postfixAfter(tokens, n);
    if (tokens[i]?.kind !== 'number' && !cued) continue;
    const found = betweenAt(tokens, i, n, taken) ?? withCue(tokens, i, n, taken);
    if (!found) continue;
    out.push(found.comparison);
    for (const k of found.used) used.add(k);
  }
  return out;
}

/** `between N and M`, `from N to M`. */
function betweenAt(tokens: readonly Token[], i: number, n: FoundNumber, taken: ReadonlySet<number>): Found | null {
  const prev = tokens[i - 1]?.norm;
  if (prev !== 'between' && prev !== 'from') return null;
  const joiner = tokens[n.end]?.norm;
  const m = numberAt(tokens, n.end + 1);
  if (!((joiner === 'and' || joiner === 'to') && m && !taken.has(n.end + 1))) return null;
  return {
    comparison: {
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
    },
    used: range(i - 1, m.end),
  };
}

/** A cue before the number (up to three words back) or after it (`or more`). */
function withCue(tokens: readonly Token[], i: number, n: FoundNumber, taken: ReadonlySet<number>): Found | null {
  const found = cueBefore(tokens, i, taken);
  const post = postfixAfter(tokens, n);
  let op = post?.op ?? found?.op ?? null;
  const end = post?.end ?? n.end;
  const postfixAt = post?.at ?? null;
  if (!op) return null;
  const start = found?.start ?? i;
  if (found?.start !== undefined && (found.start < 0 || range(found.start, found.end).some((k) => taken.has(k))))
    return null;
  // "not above": negated cues were matched whole; a "not" right before flips a plain cue.
  if (found && tokens[found.start - 1]?.norm === 'not' && found.op === op) op = negate(op);
  return {
    comparison: {
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
    },
    used: [...range(start, n.end), ...range(postfixAt ?? end, end)],
  };
}

/** The cue before the number at `i`, allowing up to three words (a column) between cue and number. */
function cueBefore(
  tokens: readonly Token[],
  i: number,
  taken: ReadonlySet<number>,
): { op: CompareOp; start: number; end: number; hint: string[] } | null {
  for (let back = 0; back <= 3; back++) {
    const endAt = i - 1 - back;
    if (endAt < 0) break;
    if (back > 0 && (tokens[endAt + 1]?.kind === 'punct' || taken.has(endAt + 1))) break;
    const cue = cueEndingAt(tokens, endAt);
    if (cue) return cue;
  }
  return null;
}

/**
 * The comparison cue whose last word is at `endAt` (`more than`, `at least`, `above`, `older
 * than`), longest first; `hint` holds a comparative adjective that says what is compared.
 */
export function cueEndingAt(
  tokens: readonly Token[],
  endAt: number,
): { op: CompareOp; start: number; end: number; hint: string[] } | null {
  for (const [words, op] of CUES) {
    if (matchesBackward(tokens, endAt, words)) return { op, start: endAt - words.length + 1, end: endAt + 1, hint: [] };
  }
  // X-er than: faster than, hotter than, older than
  if (tokens[endAt]?.norm !== 'than') return null;
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
  return op ? { op, start: endAt - 1, end: endAt + 1, hint: concept ? [adj] : [] } : null;
}

/**
 * A cue after the number: `4 or more`, `3 passengers or more`. Not when `than` follows: `less than
 * 10 factories or more than 10 shops` goes on to another comparison.
 */
function postfixAfter(tokens: readonly Token[], n: FoundNumber): { op: CompareOp; at: number; end: number } | null {
  for (const at of [n.end, n.end + 1]) {
    if (at > n.end && tokens[n.end]?.kind !== 'word') break;
    for (const [words, op] of POSTFIX) {
      const end = at + words.length;
      if (words.every((w, k) => tokens[at + k]?.norm === w) && tokens[end]?.norm !== 'than') return { op, at, end };
    }
    const comparative = comparativeAfter(tokens, at);
    if (comparative) return comparative;
  }
  return null;
}

/** `30 or younger`, `2010 or later`: a comparative after `or`, its direction from the word (`younger` is less age). */
function comparativeAfter(tokens: readonly Token[], at: number): { op: CompareOp; at: number; end: number } | null {
  if (tokens[at]?.norm !== 'or' || tokens[at + 2]?.norm === 'than') return null;
  const adj = tokens[at + 1]?.norm ?? '';
  const direction = MORE.has(adj) ? 'desc' : LESS.has(adj) ? 'asc' : CONCEPTS.get(adj)?.direction;
  if (!direction || !/(er|more|less|fewer|above|below)$/.test(adj)) return null;
  return { op: direction === 'desc' ? '>=' : '<=', at, end: at + 2 };
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
