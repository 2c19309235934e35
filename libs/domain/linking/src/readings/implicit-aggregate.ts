import { doubt, isTableMention, ref, resolve, term, use } from './lookup';
import { exprOf } from './expressions';
import { isGrouped, type ReadingRule, type ReadingState } from './state';

/** Column words naming amounts that add up (summed when no aggregate is said). */
const ADDITIVE = new Set([
  'count',
  'quantity',
  'amount',
  'total',
  'revenue',
  'sales',
  'cost',
  'units',
  'volume',
  'number',
  'spend',
  'profit',
]);

/**
 * Grouping with nothing aggregated: a derived amount is summed; a measure said without an
 * aggregate word is summed when it is an amount and averaged when it is a reading (a doubt
 * either way); `which segment has the most customers` counts rows; anything else counts rows
 * with a doubt.
 */
export const implicitAggregate: ReadingRule = {
  name: 'implicit-aggregate',
  apply(s) {
    if (!isGrouped(s) || s.aggregates.length) return;
    const L = s.links;
    const arith = L.arithmetic[0];
    const measure = L.terms.find(
      (t) => !s.used.has(t.id) && !t.values.length && resolve(s, t, { measure: true }) && !isTableMention(s, t),
    );
    const r = measure && resolve(s, measure, { measure: true });
    if (arith) {
      const expr = exprOf(s, arith.expr);
      if (expr) s.aggregates.push({ link: null, agg: { fn: 'sum', arg: expr, distinct: false } });
    } else if (measure && r) {
      use(s, measure);
      const additive = r.info.readings.some((x) => x.words.some((w) => ADDITIVE.has(w)));
      doubt(s, `no aggregate said for "${measure.text}"`);
      s.aggregates.push({
        link: null,
        agg: { fn: additive ? 'sum' : 'avg', arg: { kind: 'column', ref: ref(s, r) }, distinct: false },
      });
    } else if (ranksByTable(s)) {
      // "which segment has the most customers": ranked by how many rows.
      s.aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
    } else {
      doubt(s, 'grouped without saying what to compute');
      s.aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
    }
  },
};

/** An order keyed on a table mention (`the most customers`). */
function ranksByTable(s: ReadingState): boolean {
  return s.links.orders.some((o) => {
    const t = o.key && 'term' in o.key ? term(s, o.key.term) : undefined;
    return !!t && !!isTableMention(s, t);
  });
}
