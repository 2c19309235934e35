import { ANSWER_CUES, ORDER_CUES, PREPOSITION_CUES, TIME_UNIT_CUES } from '../lexicon';
import { singular } from '../text';
import type { Span, TermLink } from '../types';
import type { LinkRule, LinkState } from './rule';

/**
 * The answer-changing words (lexicon ANSWER_CUES, and negations) that no link took: a plan
 * without them answers another question. A word that only says again what a link already holds
 * is read: an order word beside an order (`sorted … in descending order`), a time unit beside a
 * time grouping or range (`per day, the day as a date`), a negation before a negated term or an
 * excluding comparison. A preposition that compares only with a number (`over all readings`) is
 * a preposition. An `or` between two conditions is unread unless a link reads it: values of one
 * column (an IN list) or a comparison joined to the one before.
 */
export const unread: LinkRule = {
  name: 'unread',
  apply(s) {
    const { tokens, covered } = s;
    const span = (i: number): Span => ({ start: i, end: i + 1, text: tokens[i]?.text ?? '' });
    const out: Span[] = s.negationAt.filter((i) => !covered.has(i) && !negatedAfter(s, i)).map(span);
    const timed = s.timeGroups.length > 0 || s.timeRanges.length > 0;
    tokens.forEach((t, i) => {
      if (covered.has(i) || !ANSWER_CUES.has(t.norm) || s.negationAt.includes(i)) return;
      if (ORDER_CUES.has(t.norm) && s.orders.length) return;
      if (TIME_UNIT_CUES.has(singular(t.norm)) && timed) return;
      if (PREPOSITION_CUES.has(t.norm) && tokens[i + 1]?.kind !== 'number') return;
      if (t.norm === 'either' && readDisjunctionAfter(s, i)) return;
      out.push(span(i));
    });
    // `or` between two conditions that are not values of one column (`under 30 or with a black
    // card`, `last name Kohler or first name Marina`): the plan ANDs what it reads, so unread.
    tokens.forEach((t, i) => {
      if (t.norm === 'or' && !covered.has(i) && joinsConditions(s, i) && !readDisjunction(s, i)) out.push(span(i));
    });
    s.unread = out.sort((a, b) => a.start - b.start);
  },
};

/**
 * `either A or B`: `either` only stresses the `or` after it, when a link reads that `or` — two
 * values around it (one IN list) or a comparison joined by it.
 */
function readDisjunctionAfter(s: LinkState, i: number): boolean {
  const or = s.tokens.findIndex((t, k) => k > i && t.norm === 'or');
  if (or < 0 || s.tokens.slice(i, or).some((t) => t.norm === '.' || t.norm === '?')) return false;
  const valueBefore = s.terms.some((t) => t.values.length && t.start > i && t.end <= or);
  const valueAfter = s.terms.some((t) => t.values.length && t.start > or && t.start <= or + 3);
  return (valueBefore && valueAfter) || s.comparisons.some((c) => c.orWithPrevious && c.start > or);
}

/**
 * The `or` at `i` is read: two values of one column around it (one IN list), or a comparison
 * joined to the one before it (`below 2 or above 10`).
 */
function readDisjunction(s: LinkState, i: number): boolean {
  const before = s.terms.filter((t) => t.values.length && t.end <= i && t.end >= i - 2).at(-1);
  const after = s.terms.find((t) => t.values.length && t.start > i && t.start <= i + 3);
  const columns = (t: TermLink | undefined) => new Set(t?.values.map((v) => `${v.table}.${v.column}`) ?? []);
  const shared = [...columns(before)].some((c) => columns(after).has(c));
  return shared || s.comparisons.some((c) => c.orWithPrevious && c.start > i && c.start <= i + 4);
}

/** The `or` at `i` stands between two things that are conditions (values, comparisons, text matches, dates), not in a list of what to show. */
function joinsConditions(s: LinkState, i: number): boolean {
  const condition = (start: number, end: number) =>
    s.terms.some((t) => t.values.length && t.start < end && t.end > start) ||
    s.comparisons.some((c) => c.start < end && c.end > start) ||
    s.textMatches.some((m) => m.start < end && m.end > start) ||
    s.timeRanges.some((r) => r.start < end && r.end > start);
  return condition(Math.max(0, i - 6), i) && condition(i + 1, i + 7);
}

/** A negated term or an excluding comparison follows the negation word at `i`. */
function negatedAfter(s: LinkState, i: number): boolean {
  return (
    s.terms.some((t) => t.negated && t.start > i && t.start <= i + 8) ||
    s.comparisons.some((c) => (c.excluded || c.op === '!=') && c.end > i && c.start <= i + 8)
  );
}
