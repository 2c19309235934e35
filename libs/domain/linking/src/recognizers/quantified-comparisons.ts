import { conceptColumns } from '../match';
import type { QuantifiedComparisonLink } from '../types';
import { cueEndingAt } from './comparison-cues';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';
import { subjectBefore } from './set-comparisons';

/** How a set is quantified after a comparison cue: `every`/`all`/`each` member, or `any` one. */
const QUANTIFIERS: Record<string, QuantifiedComparisonLink['quantifier']> = {
  every: 'all',
  all: 'all',
  each: 'all',
  any: 'any',
};
/** The last word of a cue that compares rather than places: `than`, `exceeds`. */
const COMPARATIVE_ENDS: ReadonlySet<string> = new Set(['than', 'exceeds', 'exceed', 'exceeding', 'exceeded']);
/** Little words between the quantifier and the set's noun: `all the managers`, `all of the other pilots`. */
const BETWEEN: ReadonlySet<string> = new Set(['the', 'of', 'other']);

/**
 * Comparisons with the members of a set: `older than every manager`, `priced above all books
 * from Harbor Books`, `a salary higher than each engineer`. The cue (as comparison-cues reads it)
 * ends right before the quantifier; the set is the noun after it, a table or a value of a column.
 * Its words are taken, so `every manager` is no grouping.
 */
export const quantifiedComparisons: LinkRule = {
  name: 'quantified-comparisons',
  apply(s) {
    for (let i = 1; i < s.tokens.length; i++) {
      const quantifier = QUANTIFIERS[norm(s, i)];
      // A comparative (`older than all`), or a preposition before `every` (`above every cash trip`):
      // `over all readings`, `above all` are no comparisons.
      const comparative = COMPARATIVE_ENDS.has(norm(s, i - 1)) || (norm(s, i) !== 'all' && norm(s, i) !== 'any');
      const cue = quantifier && comparative && !s.taken.has(i) ? cueEndingAt(s.tokens, i - 1) : null;
      if (!quantifier || !cue || range(cue.start, cue.end).some((k) => s.taken.has(k))) continue;
      let k = i + 1;
      while (BETWEEN.has(norm(s, k))) k++;
      const set = s.termAt.get(k);
      if (!set || set.start !== k || set.negated) continue;
      s.quantifiedComparisons.push(linkOf(s, cue, quantifier, set.id, set.end));
      take(s, range(cue.start, i + 1));
    }
  },
};

function linkOf(
  s: LinkState,
  cue: { op: QuantifiedComparisonLink['op']; start: number; hint: string[] },
  quantifier: QuantifiedComparisonLink['quantifier'],
  set: number,
  end: number,
): QuantifiedComparisonLink {
  return {
    start: cue.start,
    end,
    text: slice(s, cue.start, end),
    op: cue.op,
    quantifier,
    set,
    subject: subjectBefore(s, cue.start),
    hinted: cue.hint.flatMap((w) => conceptColumns(s.index, w)),
  };
}
