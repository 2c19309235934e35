import type { OrderKey, ValueExpr } from '@nl2p/query-plan';
import { CONCEPTS } from '../lexicon';
import { flip } from '../recognizers/superlatives';
import type { AggregateLink, OrderLink, TermLink } from '../types';
import { aggregateOf, exprOf } from './expressions';
import { column, doubt, isTableMention, matchKind, ref, resolve, term, use } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * ORDER BY and LIMIT: the limit said; the order said with a key or a concept (`highest
 * temperature`, `sorted by age`), else the first one with a direction; its direction, else the
 * explicit one, else descending with a limit (`5 customers by revenue` asks for the top) and
 * ascending without (SQL's own default, reported as a reading). A limit over aggregates sorts on
 * the first of them. Superlatives read as max()/min() are not orders.
 */
export const orderLimit: ReadingRule = {
  name: 'order-limit',
  apply(s) {
    // Ranked within each group (group-extremes): no order or limit over all the rows.
    if (s.extreme) return;
    const limited = s.links.orders.find((o) => o.limit !== null);
    s.limit = limited?.limit ?? null;
    s.offset = limited?.offset ?? 0;
    sortOrder(s);
    // `the second highest` skips rows of an order: with nothing to sort, which row is second?
    if (limited && s.offset && !s.orderBy.length) doubt(s, `nothing ranks "${limited.text}"`);
    else if (limited && s.offset)
      s.readings.push(`"${limited.text}" is read as the one ranked after the first ${s.offset}`);
  },
};

/** The ORDER BY: the order said with a key, its direction, else the explicit one. */
function sortOrder(s: ReadingState): void {
  const L = s.links;
  const limit = s.limit;
  const explicitDirection = L.orders.find(
    (o) => o.direction !== null && o.limit === null && (o.key === null || 'text' in o.key),
  )?.direction;
  const ranked = L.orders.filter(
    (o) => o.limit === null && (o.direction !== null || o.key !== null) && !s.superlativeAggregates.has(o.start),
  );
  // `alphabetically` alone sorts what is shown, which projection decides (alphabetical-order).
  if (ranked.length && ranked.every((o) => o.key && 'text' in o.key)) return;
  const orderSpec = ranked.find((o) => o.key !== null || o.hinted.length) ?? ranked[0];
  const direction =
    orderSpec?.direction ?? sameSpanDirection(ranked, orderSpec) ?? explicitDirection ?? (limit ? 'desc' : null);
  if (!orderSpec && !(limit && s.aggregates.length)) {
    rankedByLimit(s);
    return;
  }
  const key = orderKey(s, orderSpec ?? null);
  if (key) s.orderBy.push({ key, direction: direction ?? (limit ? 'desc' : 'asc') });
  else if (orderSpec) doubt(s, `nothing to sort "${orderSpec.text}" on`);
  if (key && !direction && !limit && orderSpec) s.readings.push(`"${orderSpec.text}" is read as ascending`);
}

/** `in descending order by train time`: the direction said over the same words as the order read without one. */
function sameSpanDirection(ranked: readonly OrderLink[], o: OrderLink | undefined): 'asc' | 'desc' | undefined {
  return (o && ranked.find((x) => x.direction && x.start < o.end && o.start < x.end)?.direction) ?? undefined;
}

/**
 * `top 3 expensive rooms`, `the bottom 5 slow trips`: a limit said with a ranking word and no
 * other order ranks by the measure said right after it, in that measure's direction (`top` alone:
 * descending). With none, `top 3` of unsorted rows would be any three: a doubt, not a bare LIMIT.
 */
function rankedByLimit(s: ReadingState): void {
  const limited = s.links.orders.find((o) => o.limit !== null);
  const word = limited ? (s.links.tokens[limited.start] ?? '').toLowerCase() : '';
  if (!limited || (word !== 'top' && word !== 'bottom')) return;
  const after = s.links.terms.find((t) => t.start === limited.end && !isTableMention(s, t));
  const measure = after && resolve(s, after, { numeric: true });
  if (!after || !measure) {
    doubt(s, `nothing to rank "${limited.text}" by`);
    return;
  }
  use(s, after);
  const concept = CONCEPTS.get(after.text.toLowerCase())?.direction;
  const direction = word === 'bottom' ? flip(concept ?? 'desc') : (concept ?? 'desc');
  s.orderBy.push({ key: measureKey(s, null, { kind: 'column', ref: ref(s, measure) }), direction });
}

/** What the order `o` sorts on: its aggregate, arithmetic, time, term or hinted column, else the first aggregate. */
export function orderKey(s: ReadingState, o: OrderLink | null): OrderKey | null {
  const grouped = isGrouped(s);
  const key = o?.key ?? null;
  if (key && 'aggregate' in key) {
    const link = s.links.aggregates[key.aggregate];
    const found = s.aggregates.find((a) => a.link === link);
    if (found) return { kind: 'aggregate', aggregate: found.agg };
    const figure = link && s.rowFigures.has(link) && rowFigure(s, link);
    if (figure) return figure;
    const agg = link && aggregateOf(s, link);
    if (agg) return { kind: 'aggregate', aggregate: agg };
  }
  if (key && 'arithmetic' in key) {
    const a = s.links.arithmetic[key.arithmetic];
    const expr = a && exprOf(s, a.expr);
    if (expr) {
      if (!grouped) return { kind: 'value', expr };
      const same = s.aggregates.find((x) => x.agg.arg && JSON.stringify(x.agg.arg) === JSON.stringify(expr));
      return { kind: 'aggregate', aggregate: same?.agg ?? { fn: 'sum', arg: expr, distinct: false } };
    }
  }
  if (key && 'time' in key && s.timeColumn)
    return { kind: 'value', expr: { kind: 'column', ref: ref(s, s.timeColumn) } };
  if (key && 'term' in key) {
    const byTerm = termKey(s, o, key.term, grouped);
    if (byTerm) return byTerm;
  }
  const hinted = o?.hinted.find((h) => s.scope.includes(h.table));
  const info = hinted && column(s, hinted);
  if (hinted && info) return measureKey(s, o, { kind: 'column', ref: ref(s, { table: hinted.table, info, score: 1 }) });
  const first = s.aggregates[0];
  if (first) return { kind: 'aggregate', aggregate: first.agg };
  return null;
}

/** A count said of a column holding the number per row (aggregates' `isRowFigure`): the column. */
function rowFigure(s: ReadingState, link: AggregateLink): OrderKey | null {
  const t = link.target && 'term' in link.target ? term(s, link.target.term) : undefined;
  const r = t && resolve(s, t, { numeric: true });
  if (!t || !r) return null;
  use(s, t);
  return { kind: 'value', expr: { kind: 'column', ref: ref(s, r) } };
}

/** Sorting on a term: how many rows when it names the grouped table, else its numeric column, else the column itself. */
function termKey(s: ReadingState, o: OrderLink | null, id: number, grouped: boolean): OrderKey | null {
  const t = term(s, id);
  if (!t) return null;
  const table = isTableMention(s, t);
  if (table && grouped) {
    use(s, t);
    return { kind: 'aggregate', aggregate: { fn: 'count', arg: null, distinct: false } };
  }
  // Ungrouped, a table said after a superlative sorts on a measure of it (`the most hosts` →
  // number_of_hosts), never on its key as a number (`the fewest customers` is no customer_id).
  const r = table ? resolve(s, t, { measure: true }) : numericNotWeaker(s, t);
  if (table && !r) return null;
  if (r) {
    use(s, t);
    return measureKey(s, o, { kind: 'column', ref: ref(s, r) });
  }
  // A name or a date sorts the rows as itself (`sorted by name`); grouped, only when it is a key.
  const other = resolve(s, t);
  const isKey = other && s.groupKeys.some((k) => k.table === other.table && k.info.label === other.info.label);
  if (!other || (grouped && !isKey)) return null;
  use(s, t);
  return { kind: 'value', expr: { kind: 'column', ref: ref(s, other) } };
}

/**
 * The term's numeric column, unless a column of another type matches it clearly better: `room
 * count` kept as text sorts as itself, not on `bathroom_count` (a number only related in meaning).
 */
function numericNotWeaker(s: ReadingState, t: TermLink): Resolved | null {
  const numeric = resolve(s, t, { numeric: true });
  const best = numeric && resolve(s, t);
  const kind = numeric && matchKind(t, numeric);
  const byMeaningOnly = kind === 'related' || kind === 'concept';
  return numeric && best && byMeaningOnly && best.score > numeric.score + 0.1 ? null : numeric;
}

/** A measure as a sort key: itself on rows; grouped, its aggregate (max for a descending sort, min ascending). */
function measureKey(s: ReadingState, o: OrderLink | null, expr: ValueExpr): OrderKey {
  if (!isGrouped(s)) return { kind: 'value', expr };
  const same = s.aggregates.find((a) => a.agg.arg && JSON.stringify(a.agg.arg) === JSON.stringify(expr));
  return {
    kind: 'aggregate',
    aggregate: same?.agg ?? { fn: o?.direction === 'asc' ? 'min' : 'max', arg: expr, distinct: false },
  };
}
