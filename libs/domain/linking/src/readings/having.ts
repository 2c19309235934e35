import type { Aggregate } from '@nl2p/query-plan';
import { comparisonCondition } from './expressions';
import { doubt, isTableMention, ref, resolve, term } from './lookup';
import { isGrouped, OPPOSITE, type OwnedComparison, type ReadingRule, type ReadingState } from './state';

/**
 * Conditions on groups. `sum of quantity per product, only products with more than 10 units`: a
 * condition in a clause about the grouped thing, on a measure the request aggregates, is about
 * the aggregate (else it is a row condition). `whose average is above 25`, `more than 5 orders`:
 * a HAVING when something is grouped; `customers who placed at least one order` holds already.
 */
export const having: ReadingRule = {
  name: 'having',
  apply(s) {
    for (const owned of s.owned) ownedCondition(s, owned);
    const grouped = isGrouped(s);
    for (const h of s.pendingHaving) {
      if (!grouped) {
        // Every row there is counts once, so `at least one` holds already; any other condition
        // needs a group to hold for.
        const trivial = h.rows && ((h.op === '>=' && h.value <= 1) || (h.op === '>' && h.value < 1));
        if (!trivial) doubt(s, `nothing grouped for "${h.fn ?? 'count'} ${h.op} ${h.value}" to hold for`);
        continue;
      }
      const agg: Aggregate | undefined = h.rows
        ? { fn: 'count', arg: null, distinct: false }
        : (s.aggregates.find((a) => a.agg.fn === h.fn)?.agg ?? s.aggregates[0]?.agg);
      if (agg) s.having.push({ aggregate: agg, op: h.op, value: h.value });
    }
  },
};

function ownedCondition(s: ReadingState, { c, r, op }: OwnedComparison): void {
  const owner = c.owner !== null ? term(s, c.owner) : undefined;
  const ownerKey = owner && !isTableMention(s, owner) ? resolve(s, owner) : null;
  const aboutGroup =
    !!ownerKey && s.groupKeys.some((k) => k.table === ownerKey.table && k.info.label === ownerKey.info.label);
  const agg = aboutGroup
    ? s.aggregates.find(
        (a) => a.agg.fn !== 'count' && a.agg.arg?.kind === 'column' && a.agg.arg.ref.column === ref(s, r).column,
      )
    : undefined;
  if (agg) {
    s.having.push({ aggregate: agg.agg, op: c.excluded ? OPPOSITE[op] : op, value: c.value });
    return;
  }
  const condition = comparisonCondition(c, ref(s, r));
  s.comparedBy.set(c, condition);
  s.conditions.push(condition);
}
