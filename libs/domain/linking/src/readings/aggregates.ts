import type { Aggregate } from '@nl2p/query-plan';
import type { AggregateLink, TermLink } from '../types';
import { aggregateOf, sameAggregate } from './expressions';
import { doubt, isTableMention, ref, resolve, term, use } from './lookup';
import type { ReadingRule, ReadingState } from './state';
import { isKeyColumn } from '../schema-index';

/**
 * The aggregates said: `average temperature`, `how many orders`, `total revenue (…)`, one
 * aggregate over a list (`average temperature and humidity`). A superlative is max()/min() only
 * when nothing else ranks (`the 3 highest`, `which … highest`, `highest average` sort instead:
 * order and limit); an aggregate word with nothing after it refers back (`with that average`, `in
 * total`).
 */
export const aggregates: ReadingRule = {
  name: 'aggregates',
  apply(s) {
    const L = s.links;
    const hasLimit = L.orders.some((o) => o.limit !== null);
    const realAggs = L.aggregates.filter((a) => !a.superlative);
    // An aggregate a set comparison holds (`above the average price`) is its sub-query's; a count
    // said of what it compares (`a number of floors above the average`) names its measure.
    const compared = new Set(L.setComparisons.map((c) => L.aggregates[c.aggregate]));
    const subjects = new Set(L.setComparisons.map((c) => c.subject));
    for (const a of L.aggregates) {
      if (compared.has(a)) continue;
      if (a.fn === 'count' && a.target && 'term' in a.target && subjects.has(a.target.term)) continue;
      if (a.superlative && (hasLimit || realAggs.some((x) => x.start === a.end) || !a.target)) continue;
      if (a.superlative) s.superlativeAggregates.add(a.start);
      if (!a.target && a.fn !== 'count' && L.aggregates.some((x) => x !== a && x.target)) continue;
      if (a.fn === 'sum' && !a.target && (realAggs.length > 1 || L.aggregates.some((x) => x.fn === 'count'))) continue;
      if (isRowFigure(s, a)) {
        s.rowFigures.add(a);
        continue;
      }
      const agg = aggregateOf(s, a);
      if (agg === undefined) continue;
      if (agg === null) {
        doubt(s, `nothing to take the ${a.fn} of`);
        continue;
      }
      add(s, a, agg);
      // `average temperature and humidity`: the aggregate applies to each measure of the list.
      for (const t of conjoinedMeasures(s, a, agg)) {
        const r = resolve(s, t, { measure: true }) ?? resolve(s, t, { numeric: true });
        if (!r?.info.numeric) break;
        use(s, t);
        add(s, a, { fn: agg.fn, arg: { kind: 'column', ref: ref(s, r) }, distinct: false });
      }
    }
  },
};

/**
 * `names of companies by ascending number of sales`, `the journalist with the largest number of
 * years working`: a count said of a column that already holds a number (not a key, not a table)
 * ranks rows by that number when nothing is grouped; counting or summing it would collapse the
 * rows the request lists. Only as a sort key: said alone (`the number of sales`) it stays a sum.
 */
function isRowFigure(s: ReadingState, a: AggregateLink): boolean {
  const L = s.links;
  if (a.fn !== 'count' || a.distinct || !a.target || !('term' in a.target)) return false;
  // `the journalist with the largest …` groups by the rows themselves: no grouping.
  const groupsRows = (g: (typeof L.groups)[number]) => {
    const t = term(s, g.term);
    return !!t && isTableMention(s, t) === s.source;
  };
  if (L.timeGroups.length || L.groups.some((g) => !groupsRows(g))) return false;
  const ranks =
    L.orders.some((o) => o.key && 'aggregate' in o.key && L.aggregates[o.key.aggregate] === a) ||
    L.aggregates.some((x) => x.superlative && x.end === a.start);
  if (!ranks) return false;
  const t = term(s, a.target.term);
  if (!t || isTableMention(s, t)) return false;
  const r = resolve(s, t);
  return !!r && r.info.numeric && !isKeyColumn(r.info);
}

function add(s: ReadingState, link: AggregateLink, agg: Aggregate): void {
  if (!s.aggregates.some((x) => sameAggregate(x.agg, agg))) s.aggregates.push({ link, agg });
}

/**
 * The terms listed after an aggregate's own (`temperature and humidity`, `a, b and c`) that have
 * no aggregate of their own and name no table or value: the aggregate is said once for them all.
 */
function conjoinedMeasures(s: ReadingState, a: AggregateLink, agg: Aggregate): TermLink[] {
  // A count of rows lists no measures; `how many international and domestic passengers` (a sum of each) does.
  if (agg.fn === 'count' || !a.target || !('term' in a.target)) return [];
  const L = s.links;
  const out: TermLink[] = [];
  let current = term(s, a.target.term);
  while (current) {
    let k = current.end;
    const joiner = (L.tokens[k] ?? '').toLowerCase();
    if (joiner !== 'and' && joiner !== ',') break;
    k++;
    if (joiner === ',' && (L.tokens[k] ?? '').toLowerCase() === 'and') k++;
    const next = L.terms.find((t) => t.start === k);
    if (
      !next ||
      !next.projected ||
      next.values.length ||
      isTableMention(s, next) ||
      L.aggregates.some((x) => x !== a && x.target && 'term' in x.target && x.target.term === next.id) ||
      L.groups.some((g) => g.term === next.id)
    )
      break;
    out.push(next);
    current = next;
  }
  return out;
}
