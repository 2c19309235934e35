import type { ComparisonLink, TermLink } from '../types';
import { range, slice, take, type LinkRule, type LinkState } from './rule';
import { sharedByBefore } from './shared-by';

/**
 * `publishers that have publications with a price above 10000000 and publications with a price
 * below 5000000`, `investors shared by entrepreneurs that requested more than 140000 and
 * entrepreneurs that requested less than 120000`: the noun said again before the second
 * condition makes two sets of its rows, and what is answered must have rows in each, as `both`
 * says (both-conditions); an AND on one row would find none. Read only when the repeated noun
 * names a table and the answer is another thing said before it (the publishers), and `and`, never
 * `or`, joins the two. The both-conditions reading intersects the answers, or doubts.
 */
export const repeatedNounConditions: LinkRule = {
  name: 'repeated-noun-conditions',
  apply(s) {
    for (let k = 0; k + 1 < s.comparisons.length; k++) {
      const [a, b] = [s.comparisons[k], s.comparisons[k + 1]];
      if (!a || !b || s.allOf.some((x) => x.comparisons?.some((c) => c === k || c === k + 1))) continue;
      const [first, second] = [nounOf(s, a), nounOf(s, b)];
      if (!first || !second || first === second || !sameTableNamed(first, second) || !answeredBefore(s, first)) continue;
      const between = range(a.end, second.start).map((i) => s.tokens[i]?.norm);
      if (second.start < a.end || !between.includes('and') || between.includes('or') || b.orWithPrevious) continue;
      // `investors shared by entrepreneurs that … and entrepreneurs that …`: the cue is read here.
      const [from, to] = [sharedByBefore(s, first.start)[0], first.start];
      const cue = from !== undefined ? { cue: { start: from, end: to, text: slice(s, from, to) } } : {};
      if (from !== undefined) take(s, range(from, to));
      s.allOf.push({ start: second.start, end: second.end, text: `${first.text} … and ${second.text}`, terms: [], comparisons: [k, k + 1], ...cue });
    }
  },
}; // prettier-ignore

/** How far before a comparison (or its subject) its noun may be: `publications with price higher than …`. */
const NOUN_REACH = 3;

/** The noun whose clause a comparison is in: its owner, else a table named just before it or its subject. */
function nounOf(s: LinkState, c: ComparisonLink): TermLink | undefined {
  if (c.owner !== null) return s.terms[c.owner];
  const from = c.subject !== null ? (s.terms[c.subject]?.start ?? c.start) : c.start;
  for (let i = from - 1; i >= Math.max(0, from - NOUN_REACH); i--) {
    const t = s.termAt.get(i);
    if (t && t.tables.length) return t;
  }
  return undefined;
}

/** Two mentions whose best reading is the same table (`publications` … `publications`). */
function sameTableNamed(a: TermLink, b: TermLink): boolean {
  const table = (t: TermLink) => {
    const best = t.tables[0];
    return best && !t.columns.some((c) => c.score > best.score) ? best.table : null;
  };
  return !!table(a) && table(a) === table(b);
}

/** The answer is something said before the first noun, and not that noun's table itself. */
function answeredBefore(s: LinkState, noun: TermLink): boolean {
  return s.terms.some((t) => t.end <= noun.start && t.tables[0]?.table !== noun.tables[0]?.table);
}
