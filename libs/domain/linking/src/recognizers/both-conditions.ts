import { range, take, type LinkRule, type LinkState } from './rule';

const CLAUSE_END = new Set(['?', '.', ';', '!']);
/** How far after `both` the first condition may begin (`both ships with tonnage above …`). */
const MAX_LEAD = 6;

/**
 * `both A and B` where A and B are comparisons (`types of ships that have both ships with tonnage
 * above 6000 and ships with tonnage below 4000`, `nations that have both journalists with more
 * than 10 years and journalists with less than 3`): groups some of whose rows meet each condition,
 * not rows meeting both at once (an AND would find none). The `both` is taken; the both-conditions
 * reading intersects the answers, or doubts.
 */
export const bothConditions: LinkRule = {
  name: 'both-conditions',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (s.tokens[i]?.norm !== 'both' || s.taken.has(i)) continue;
      const said = comparisonsAfter(s, i);
      if (!said) continue;
      s.allOf.push({ start: i, end: i + 1, text: s.tokens[i]?.text ?? 'both', terms: [], comparisons: said });
      take(s, range(i, i + 1));
    }
  },
};

/** The comparisons in the clause after `both`, when the first begins close to it and `and` joins it to the next. */
function comparisonsAfter(s: LinkState, i: number): number[] | null {
  let end = i + 1;
  while (end < s.tokens.length && !CLAUSE_END.has(s.tokens[end]?.text ?? '')) end++;
  const found = s.comparisons.flatMap((c, k) => (c.start > i && c.end <= end ? [k] : []));
  const [first, second] = found.map((k) => s.comparisons[k]);
  if (!first || !second || found.length !== 2 || first.start - i > MAX_LEAD) return null;
  const between = range(first.end, second.start).map((k) => s.tokens[k]?.norm);
  return between.includes('and') && !between.includes('or') && !second.orWithPrevious ? found : null;
}
