import type { RatioLink, RatioSide, Span } from '../types';
import type { FoundRatioCue } from './ratio-cues';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';
import { measureLike, namesTableFirst } from './term-kinds';

/** Words between the two sides: `A to B`, `A versus B`, `A out of B`, `A compared to B`. */
const SEPARATORS = new Set(['to', 'versus', 'vs', 'against']);
/** Between the sides of a ratio only when no other separator is said (`the ratio of population per area`); after a share they group (`the share of cash trips per borough`). */
const WEAK_SEPARATORS = new Set(['per', 'over']);
const TWO_WORD_SEPARATORS: readonly (readonly [string, string])[] = [['out', 'of'], ['compared', 'to'], ['compared', 'with'], ['relative', 'to']]; // prettier-ignore
/** Where a side's words end: the clause ends, or the request goes on to say per what, in which order, or how it varies. */
const SIDE_ENDS = new Set(['?', '.', ';', '!', ',', 'per', 'across', 'among', 'grouped', 'broken', 'split', 'sorted', 'ordered', 'order', 'ranked', 'vary', 'varies', 'differ', 'differs', 'change', 'changes', 'where', 'return', 'show', 'list']); // prettier-ignore
/** Words before a side's first noun that say nothing of it. */
const LEADING = new Set([
  'the',
  'a',
  'an',
  'all',
  'those',
  'these',
  'every',
  'each',
  'of',
  'its',
  'their',
  'his',
  'her',
]);
/** A denominator said as the whole: `all restaurants`, `the total number of papers`, `every order`. */
const WHOLE_WORDS = new Set(['all', 'every', 'entire', 'total', 'overall']);

/**
 * The sides of each ratio cue, once the terms are known: `the ratio of A to B` (also `between A
 * and B`, `A versus B`, `A per B`, `A out of B`), each side from its first word to the next
 * separator or to the end of its clause. The separator is the first one followed by data (a
 * term or an aggregate): in `papers that belong to more than 1 dataset to papers that belong to
 * 1 dataset` the second `to`. A share said with one side (`what percentage of orders were
 * returned`) divides those words by their head noun, the whole (`orders`). A ratio whose sides
 * cannot be found is no link: its word stays unread, and the reading is not conclusive.
 */
export const ratios: LinkRule = {
  name: 'ratios',
  apply(s) {
    for (const cue of s.ratioCues) {
      const found = twoSided(s, cue) ?? (cue.share ? shareOfWhole(s, cue) : null);
      // No sides: the cue is given back, so the accounting reports the ratio word as unread.
      if (!found) {
        for (const k of range(cue.start, cue.end)) s.taken.delete(k);
        continue;
      }
      s.ratios.push(found);
      for (const c of found.cues.slice(1)) take(s, range(c.start, c.end));
    }
  },
};

function twoSided(s: LinkState, cue: FoundRatioCue): RatioLink | null {
  return sidesAround(s, cue, false) ?? (cue.share ? null : sidesAround(s, cue, true));
}

/** The sides around the first separator followed by data; `weak`: `per`, `over` are the separators. */
function sidesAround(s: LinkState, cue: FoundRatioCue, weak: boolean): RatioLink | null {
  // The separator may be a word that ends other sides (`population per area`): looked for to the clause's end.
  const end = clauseEnd(s, cue.end);
  for (let k = cue.end + 1; k < end; k++) {
    const width = weak ? (WEAK_SEPARATORS.has(norm(s, k)) && !s.taken.has(k) ? 1 : 0) : separatorAt(s, k, cue.between);
    if (!width || !hasData(s, cue.end, k) || !dataStartsAt(s, k + width)) continue;
    const denominatorEnd = sideEnd(s, k + width);
    const numerator = side(s, cue.end, k);
    const denominator = side(s, k + width, denominatorEnd);
    const whole = norm(s, k) === 'out' || saysWhole(s, k + width, cue.end);
    return link(s, cue, numerator, denominator, whole, [span(s, k, k + width)]);
  }
  return null;
}

/** `what percentage of orders were returned`: those orders out of all orders (the numerator's head noun). */
function shareOfWhole(s: LinkState, cue: FoundRatioCue): RatioLink | null {
  const end = sideEnd(s, cue.end);
  const head = s.terms.find((t) => t.start >= cue.end && t.end <= end && namesTableFirst(t));
  // Something said of the head, before it (`enterprise customers`) or after (`orders that were returned`).
  if (!head || !(hasData(s, cue.end, head.start) || hasData(s, head.end, end))) return null;
  return link(s, cue, side(s, cue.end, end), side(s, head.start, head.end), true, []);
}

function link(s: LinkState, cue: FoundRatioCue, numerator: RatioSide, denominator: RatioSide, whole: boolean, separators: Span[]): RatioLink {
  const end = Math.max(numerator.end, denominator.end);
  return { ...span(s, cue.start, end), numerator, denominator, scale: cue.scale, op: cue.op, whole, cues: [span(s, cue.start, cue.end), ...separators] };
} // prettier-ignore

/** The separator's width at `k` (0 when none). */
function separatorAt(s: LinkState, k: number, between: boolean): number {
  if (s.taken.has(k)) return 0;
  const w = norm(s, k);
  if (between) return w === 'and' ? 1 : 0;
  if (SEPARATORS.has(w)) return 1;
  return TWO_WORD_SEPARATORS.some(([a, b]) => a === w && b === norm(s, k + 1)) ? 2 : 0;
}

/** The first token after `from` that ends the sentence or clause. */
function clauseEnd(s: LinkState, from: number): number {
  let k = from;
  while (k < s.tokens.length && !['?', '.', ';', '!'].includes(norm(s, k))) k++;
  return k;
}

/** The first token after `from` that ends a side. */
function sideEnd(s: LinkState, from: number): number {
  let k = from;
  while (k < s.tokens.length && !SIDE_ENDS.has(norm(s, k))) {
    if (['for', 'in', 'of'].includes(norm(s, k)) && ['each', 'every'].includes(norm(s, k + 1))) break;
    if (groupsBy(s, k)) break;
    k++;
  }
  return k;
}

/** `by continent` ends a side (per what); `paid by cash`, `written by Smith` do not (a value, a passive agent). */
function groupsBy(s: LinkState, k: number): boolean {
  if (norm(s, k) !== 'by' || /ed$/.test(norm(s, k - 1))) return false;
  const next = s.termAt.get(firstWord(s, k + 1));
  return !!next && !next.values.length;
}

/** A term or an aggregate said between `from` and `to`. */
function hasData(s: LinkState, from: number, to: number): boolean {
  return (
    s.terms.some((t) => t.start >= from && t.end <= to) || s.aggregates.some((a) => a.start >= from && a.start < to)
  );
}

/** The side after a separator begins with data (past articles and `all`): not `belong to more than 1`. */
function dataStartsAt(s: LinkState, k: number): boolean {
  const first = firstWord(s, k);
  return s.termAt.has(first) || s.aggregateAt.has(first) || s.aggregateCues.has(first);
}

/**
 * The denominator at `from` is said as the whole: `all B`, `every B`, `the total number of B`
 * (unless the numerator is said the same way: `the total number of A to the total number of B`).
 * `A out of B` says so by itself.
 */
function saysWhole(s: LinkState, from: number, numeratorFrom: number): boolean {
  const leading = (k: number) => range(k, firstWord(s, k) + 1).map((x) => norm(s, x));
  const numerator = new Set(leading(numeratorFrom));
  return leading(from).some((w) => WHOLE_WORDS.has(w) && !(w === 'total' && numerator.has(w)));
}

function firstWord(s: LinkState, k: number): number {
  let at = k;
  while (LEADING.has(norm(s, at)) && !s.termAt.has(at) && !s.aggregateCues.has(at)) at++;
  return at;
}

/**
 * A side's words and the aggregate it is read with when it says none: the total of the measure it
 * names first (`the length of the Mississippi`, `aircraft capacity`: past the table's name), else
 * a count of the rows it says (`restaurants with a rating above 4`: the rating is compared, not
 * measured).
 */
function side(s: LinkState, from: number, to: number): RatioSide {
  // A superlative with a function (`the highest`) says the side's aggregate too: max.
  const said = s.aggregates.some(
    (a) => a.start >= from && a.start < to && (!a.superlative || a.fn === 'max' || a.fn === 'min'),
  );
  const compared = new Set(s.comparisons.map((c) => c.subject));
  const first = s.terms.find((t) => t.start >= from && t.end <= to && !namesTableFirst(t));
  const measured = first && !compared.has(first.id) && measureLike(first, s.index);
  return { ...span(s, from, to), implied: said ? null : measured ? 'sum' : 'count' };
}

function span(s: LinkState, start: number, end: number): Span {
  return { start, end, text: slice(s, start, end) };
}
