import { CONCEPTS } from '../lexicon';
import { conceptColumns } from '../match';
import { superlativeAt } from './superlatives';
import type { OrderLink } from '../types';
import { cuesInOrder, norm, slice, type LinkRule, type LinkState } from './rule';

/**
 * Superlatives as orderings (`highest`, `newest`, `hottest`, `most expensive`) and what each sorts
 * on: a time column, the concept's columns, or the aggregate, arithmetic, defined word or term
 * said after it (`the highest average temperature`). Whether one is max()/min() instead is the
 * proposer's choice.
 */
export const superlativeOrders: LinkRule = {
  name: 'superlative-orders',
  apply(s) {
    const direction = s.direction;
    for (const [i, c] of cuesInOrder(s)) {
      if (!c.superlative) continue;
      if (direction && i >= direction.start && i < direction.end) continue;
      const said = superlativeAt(s.tokens, i);
      if (!said) continue;
      const sup = ofAge(s, i, said);
      const hinted = sup.concept ? conceptColumns(s.index, sup.concept) : [];
      const key: OrderLink['key'] = sup.time ? { time: true } : hinted.length ? null : keyAfter(s, i, sup.end);
      s.orders.push({
        start: i,
        end: sup.end,
        text: slice(s, i, sup.end),
        direction: sup.direction,
        limit: null,
        key,
        hinted,
        superlative: true,
      });
    }
  },
};

type Superlative = NonNullable<ReturnType<typeof superlativeAt>>;

/**
 * `the oldest technician`: said of things that have an age, the oldest is the one with the most
 * age, not the earliest row; with no age column it sorts on time as before (`the oldest order`).
 */
function ofAge(s: LinkState, i: number, sup: Superlative): Superlative {
  const w = norm(s, i);
  const concept = sup.time ? CONCEPTS.get(w) : undefined;
  if (!concept?.direction || !conceptColumns(s.index, w).length) return sup;
  return { ...sup, direction: concept.direction, time: false, concept: w };
}

/** What the superlative at `i` (ending at `end`) sorts on, said within six tokens after it. */
function keyAfter(s: LinkState, i: number, end: number): OrderLink['key'] {
  let key: OrderLink['key'] = null;
  for (let k = end; !key && k < Math.min(s.tokens.length, end + 6); k++) {
    const ai = s.aggregateAt.get(k);
    if (ai !== undefined && k !== i && !s.aggregates[ai]?.superlative) return { aggregate: ai };
    const a = s.arithmeticAt.get(k);
    if (a) key = { arithmetic: a.id };
    const t = s.termAt.get(k);
    if (t && !t.values.length) key = { term: t.id };
    if (s.defined.has(norm(s, k))) {
      const def = s.arithmetic.find((x) => x.defines.includes(norm(s, k)));
      if (def) key = { arithmetic: def.id };
    }
    if (s.tokens[k]?.kind === 'punct' && norm(s, k) !== '(') break;
  }
  return key;
}
