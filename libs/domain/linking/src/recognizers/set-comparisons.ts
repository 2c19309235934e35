import { FUNCTION_WORDS, REQUEST_VERBS } from '../lexicon';
import type { SetComparisonLink, TermLink } from '../types';
import { cueEndingAt } from './comparison-cues';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';
import { measureLike } from './term-kinds';

/** What a set may be reduced to for a comparison: its average, its largest or smallest value. */
const SET_AGGREGATES: ReadonlySet<string> = new Set(['avg', 'max', 'min']);
/** Little words between the cue and the aggregate: `above the average`, `below that of the average`. */
const BETWEEN: ReadonlySet<string> = new Set(['the', 'that', 'those', 'of']);
/** Words that end the aggregate's phrase: a target past them is another phrase's. */
const PHRASE_ENDS: ReadonlySet<string> = new Set([
  'or',
  'and',
  'but',
  'than',
  'who',
  'which',
  'that',
  'whose',
  'where',
]);

/**
 * Comparisons with an aggregate of a set instead of a number: `priced above the average price`,
 * `whose balance is below the largest balance`, `more than the average number of points`,
 * `larger than the average`. The cue (read as comparison-cues reads it) ends right before the
 * aggregate, a few little words apart. The aggregate stays a link (its target is the set's
 * measure) but is no longer a cue of its own: a superlative said this way (`the largest
 * balance`) neither sorts nor singles out one row.
 */
export const setComparisons: LinkRule = {
  name: 'set-comparisons',
  apply(s) {
    s.aggregates.forEach((a, index) => {
      if (!SET_AGGREGATES.has(a.fn) || a.distinct) return;
      let k = a.start - 1;
      while (k >= 0 && k >= a.start - 3 && BETWEEN.has(norm(s, k))) k--;
      const cue = cueEndingAt(s.tokens, k);
      if (!cue || range(cue.start, cue.end).some((x) => s.taken.has(x))) return;
      const target = ownTarget(s, index);
      if (target === undefined) return;
      s.setComparisons.push(linkOf(s, cue, index, target, Math.max(a.end, target?.end ?? 0)));
      take(s, range(cue.start, cue.end));
      s.aggregateCues.delete(a.start);
    });
  },
};

function linkOf(
  s: LinkState,
  cue: { op: SetComparisonLink['op']; start: number },
  aggregate: number,
  target: TermLink | null,
  end: number,
): SetComparisonLink {
  return {
    start: cue.start,
    end,
    text: slice(s, cue.start, end),
    op: cue.op,
    aggregate,
    target: target?.id ?? null,
    subject: subjectBefore(s, cue.start),
  };
}

/**
 * The set's measure: the aggregate's target term when it follows within the same phrase (`the
 * average number of points`); null when none does (`above the average or …`: the target the
 * aggregate found lies past a conjunction); undefined when the target is a computed value.
 */
function ownTarget(s: LinkState, index: number): TermLink | null | undefined {
  const a = s.aggregates[index];
  if (!a?.target) return null;
  if (!('term' in a.target)) return undefined;
  const t = s.terms[a.target.term];
  if (!t) return null;
  const crosses = range(a.end, t.start).some((k) => PHRASE_ENDS.has(norm(s, k)) || s.tokens[k]?.kind === 'punct');
  return crosses ? null : t;
}

/**
 * The measure compared, said before the cue over verbs and little words (`whose balance is
 * below`, `with a height above`); null when the words before name a table or nothing measured
 * (`players that got more than the average points`: the set's own measure is compared).
 */
export function subjectBefore(s: LinkState, cueStart: number): number | null {
  for (let k = cueStart - 1; k >= Math.max(0, cueStart - 5); k--) {
    const t = s.termAt.get(k);
    if (t) return t.columns.length && !t.values.length && measureLike(t, s.index) ? t.id : null;
    const w = norm(s, k);
    if (s.tokens[k]?.kind === 'punct') return null;
    if (!FUNCTION_WORDS.has(w) && !REQUEST_VERBS.has(w) && !/(ed|ing)$/.test(w)) return null;
  }
  return null;
}
