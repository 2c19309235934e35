import { ANSWER_CUES, ORDER_CUES, PREPOSITION_CUES, TIME_UNIT_CUES } from '../lexicon';
import { singular } from '../text';
import type { Span } from '../types';
import type { LinkRule, LinkState } from './rule';

/**
 * The answer-changing words (lexicon ANSWER_CUES, and negations) that no link took: a plan
 * without them answers another question. A word that only says again what a link already holds
 * is read: an order word beside an order (`sorted … in descending order`), a time unit beside a
 * time grouping or range (`per day, the day as a date`), a negation before a negated term or an
 * excluding comparison. A preposition that compares only with a number (`over all readings`) is
 * a preposition.
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

/** A negated term or an excluding comparison follows the negation word at `i`. */
function negatedAfter(s: LinkState, i: number): boolean {
  return (
    s.terms.some((t) => t.negated && t.start > i && t.start <= i + 8) ||
    s.comparisons.some((c) => (c.excluded || c.op === '!=') && c.end > i && c.start <= i + 8)
  );
}
