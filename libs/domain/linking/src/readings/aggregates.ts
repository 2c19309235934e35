import type { Aggregate } from '@nl2p/query-plan';
import type { AggregateLink, TermLink } from '../types';
import { aggregateOf, sameAggregate } from './expressions';
import { doubt, isTableMention, ref, resolve, term, use } from './lookup';
import type { ReadingRule, ReadingState } from './state';

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
      const agg = aggregateOf(s, a);
      if (agg === undefined) continue;
      if (agg === null) {
        doubt(s, `nothing to take the ${a.fn} of`);
        continue;
      }
      add(s, a, agg);
      // `average temperature and humidity`: the aggregate applies to each measure of the list.
      for (const t of conjoinedMeasures(s, a)) {
        const r = resolve(s, t, { measure: true }) ?? resolve(s, t, { numeric: true });
        if (!r?.info.numeric) break;
        use(s, t);
        add(s, a, { fn: agg.fn, arg: { kind: 'column', ref: ref(s, r) }, distinct: false });
      }
    }
  },
};

function add(s: ReadingState, link: AggregateLink, agg: Aggregate): void {
  if (!s.aggregates.some((x) => sameAggregate(x.agg, agg))) s.aggregates.push({ link, agg });
}

/**
 * The terms listed after an aggregate's own (`temperature and humidity`, `a, b and c`) that have
 * no aggregate of their own and name no table or value: the aggregate is said once for them all.
 */
function conjoinedMeasures(s: ReadingState, a: AggregateLink): TermLink[] {
  if (a.fn === 'count' || !a.target || !('term' in a.target)) return [];
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
