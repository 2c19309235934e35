import { REQUEST_VERBS } from '../lexicon';
import { ownKey } from '../schema-index';
import { singular } from '../text';
import type { ComparisonLink, TermLink } from '../types';
import { isTableMention, resolve, use } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * Values of a column that a number of rows share (`cities with exactly two airports`, `the
 * parties that have at least three representatives`, `locations where more than 2 wrestlers
 * live`): the rows of the counted table are grouped by the column named just before the clause,
 * and the count compared (GROUP BY city HAVING count(*) = 2). The counted noun must be the table
 * the plan reads (a count of its rows); the head must be a column of that table, said right
 * before the clause's little words. Anything else (the head a table, as in `customers with more
 * than 5 orders`, a join the request does not spell out) is left to HAVING's doubt.
 */
export const countedGroups: ReadingRule = {
  name: 'counted-groups',
  apply(s) {
    if (isGrouped(s) || s.aggregates.length || !s.source) return;
    const counted = s.links.comparisons.filter((c) => c.countsRows && c.op !== 'between');
    const c = counted[0];
    if (!c || counted.length > 1) return;
    // `used less than 5 times`: the source's own rows counted, said by a verb rather than a noun.
    const times = /\btimes?$/i.test(c.text);
    const rows = times ? undefined : countedTerm(s, c);
    if (!times && (!rows || isTableMention(s, rows) !== s.source)) return;
    const head = headBefore(s, c, times);
    const key = head && groupColumn(s, head);
    if (!head || !key) return;
    use(s, head);
    if (rows) use(s, rows);
    s.groupKeys.push(key);
    s.aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
    s.readings.push(`"${head.text} … ${c.text}" is read as the ${key.info.column} values shared by that many rows`);
  },
};

/** Little words between the head noun and its clause: `cities with`, `parties that have`, `year in which there are`. */
const CLAUSE_WORDS: ReadonlySet<string> = new Set(
  `that which who where whose with having have has had are is were was in from there of by`.split(' '),
);

/** The noun counted: the table mention the comparison ends with (`more than 5 airports`). */
function countedTerm(s: ReadingState, c: ComparisonLink): TermLink | undefined {
  return s.links.terms.find((t) => t.end === c.end && t.start > c.start && !t.values.length && !t.negated);
}

/** Verbs a count said in `times` is of (`were used`, `has been visited`): passed over like the little words. */
const isVerbOfTimes = (w: string) => w === 'been' || w === 'be' || REQUEST_VERBS.has(w) || /ed$/.test(w);

/** The term ending right before the clause that holds the comparison, past its little words (and, for `times`, its verb). */
function headBefore(s: ReadingState, c: ComparisonLink, times = false): TermLink | undefined {
  let k = c.start - 1;
  const passable = (w: string) =>
    CLAUSE_WORDS.has(w) || (times && isVerbOfTimes(w) && !s.links.terms.some((t) => t.start === k));
  while (k >= 0 && passable((s.links.tokens[k] ?? '').toLowerCase())) k--;
  if (k === c.start - 1) return undefined;
  const head = s.links.terms.find((t) => t.end === k + 1);
  return head && !head.values.length && !head.negated ? head : undefined;
}

/** The source's column a head names, when it is a column (not the table, not its own key). */
function groupColumn(s: ReadingState, head: TermLink): Resolved | null {
  if (isTableMention(s, head)) return null;
  const r = resolve(s, head);
  if (!r || r.table !== s.source) return null;
  const src = s.index.table(r.table);
  if (src && ownKey(src, singular)?.label === r.info.label) return null;
  return r;
}
