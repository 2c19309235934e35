import { keyAfter } from './direction-order';
import { sortVerbBefore } from './groups';
import { norm, slice, type LinkRule, type LinkState } from './rule';

/**
 * `in order of titles`, `in the order of their names`, `ordered by date` with no direction said:
 * an order on what it names, in no direction (ascending, SQL's own, reported as a reading). A
 * request that says a direction too is read by direction-order.
 */
export const orderOf: LinkRule = {
  name: 'order-of',
  apply(s) {
    sortedByAggregate(s);
    if (s.direction) return;
    for (let i = 0; i < s.tokens.length; i++) {
      if (norm(s, i) !== 'in') continue;
      const k = norm(s, i + 1) === 'the' ? i + 2 : i + 1;
      if (norm(s, k) !== 'order' || norm(s, k + 1) !== 'of') continue;
      const said = keyAfter(s, k + 2);
      // `in order of titles and credits`: several keys are not read here; the words stay unread.
      if (!said || ['and', ','].includes(norm(s, said.end))) continue;
      s.orders.push({
        start: i,
        end: said.end,
        text: slice(s, i, said.end),
        direction: null,
        limit: null,
        key: said.key,
        hinted: [],
      });
      return;
    }
  },
};

/**
 * `Order the result by the count of photos`, `sorted by the total price`: a sort verb's key that is
 * an aggregate (groups read a `by` before a noun: `sorted by age`). In no direction unless one is said.
 */
function sortedByAggregate(s: LinkState): void {
  for (let j = 0; j < s.tokens.length; j++) {
    if (norm(s, j) !== 'by') continue;
    const verb = sortVerbBefore(s, j);
    if (verb === null || s.orders.some((o) => o.start <= verb && o.end > verb)) continue;
    const said = keyAfter(s, j + 1);
    if (!said || !('aggregate' in said.key)) continue;
    s.orders.push({
      start: verb,
      end: said.end,
      text: slice(s, verb, said.end),
      direction: null,
      limit: null,
      key: said.key,
      hinted: [],
    });
  }
}
