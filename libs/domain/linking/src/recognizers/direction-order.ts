import type { OrderLink } from '../types';
import { norm, slice, type LinkRule, type LinkState } from './rule';
import { namesTableFirst } from './term-kinds';

/** Words between a direction and what it sorts on: `in descending order of their age`, `by ascending tonnage`. */
const KEY_CONNECTORS = new Set(['of', 'by', 'using', 'on', 'according', 'to', 'the', 'their', 'its', 'his', 'her']);
const MAX_CONNECTORS = 3;

/**
 * The explicit direction (`in descending order`, `newest first`) as an order; on a time column or a
 * name (`alphabetically`) when it says so, on what it names right after it when it names something
 * (`in descending order of days held`, `ordered by ascending tonnage`, `descending by age`).
 */
export const directionOrder: LinkRule = {
  name: 'direction-order',
  apply(s) {
    const d = s.direction;
    if (!d) return;
    const said = d.time ? null : d.text ? columnAfter(s, d.end) : keyAfter(s, d.end);
    s.orders.push({
      start: d.start,
      end: said?.end ?? d.end,
      text: slice(s, d.start, said?.end ?? d.end),
      direction: d.direction,
      limit: null,
      key: d.time ? { time: true } : said ? said.key : d.text ? { text: true } : null,
      hinted: [],
    });
  },
};

/**
 * `in alphabetical order of family name`, `alphabetically by title`: the column an alphabetical
 * order names after it, when a column is what it names (not `of the students`, a table).
 */
function columnAfter(s: LinkState, k: number): { key: NonNullable<OrderLink['key']>; end: number } | null {
  const said = keyAfter(s, k);
  const id = said && 'term' in said.key ? said.key.term : null;
  const t = s.terms.find((x) => x.id === id);
  if (!said || !t?.columns.length) return null;
  const column = Math.max(...t.columns.map((c) => c.score));
  const table = Math.max(0, ...t.tables.map((c) => c.score));
  return column > table ? said : null;
}

/** What the direction names as its key after `k`: a term or an aggregate, past a few connecting words. */
export function keyAfter(s: LinkState, k: number): { key: NonNullable<OrderLink['key']>; end: number } | null {
  let i = k;
  if (norm(s, i) === 'order') i++;
  for (let n = 0; n <= MAX_CONNECTORS; n++, i++) {
    const aggregate = s.aggregateAt.get(i);
    const agg = aggregate === undefined ? undefined : s.aggregates[aggregate];
    if (agg && aggregate !== undefined) {
      const said = agg.target && 'term' in agg.target ? agg.target.term : null;
      const target = s.terms.find((t) => t.id === said);
      return { key: { aggregate }, end: Math.max(agg.end, target?.end ?? 0) };
    }
    const t = s.termAt.get(i);
    // `in descending order of the company's market value`: a table names whose column follows.
    const owned = t && namesTableFirst(t) ? s.termAt.get(t.end) : undefined;
    if (t && owned && owned.start === t.end && owned.columns.length && !owned.values.length)
      return { key: { term: owned.id }, end: owned.end };
    if (t && t.start === i && (t.columns.length || t.tables.length)) return { key: { term: t.id }, end: t.end };
    if (!KEY_CONNECTORS.has(norm(s, i))) return null;
  }
  return null;
}
