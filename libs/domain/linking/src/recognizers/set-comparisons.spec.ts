import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

/** `words: op fn(target)` with the subject said before the cue, and how many orders the request has. */
type Said = { said: string[]; orders: number };

const said = (l: Links): Said => ({
  said: l.setComparisons.map((c) => {
    const a = l.aggregates[c.aggregate];
    const target = c.target !== null ? l.terms[c.target]?.text : '';
    const subject = c.subject !== null ? ` of ${l.terms[c.subject]?.text}` : '';
    return `${c.text}: ${c.op} ${a?.fn}(${target})${subject}`;
  }),
  orders: l.orders.length,
});

describe('set-comparisons', () => {
  const EXAMPLES: Example<Said>[] = [
    { say: 'orders with a quantity above the average quantity', means: { said: ['above the average quantity: > avg(quantity) of quantity'], orders: 0 } },
    { say: 'which orders have a unit price higher than the average?', means: { said: ['higher than the average: > avg() of unit price'], orders: 0 } },
    // A superlative said as the set's value neither sorts nor singles out a row.
    { say: 'orders whose unit price is less than the largest unit price', means: { said: ['less than the largest unit price: < max(unit price) of unit price'], orders: 0 } },
    { say: 'trips with a fare below the lowest tip', on: 'taxi', means: { said: ['below the lowest tip: < min(tip) of fare'], orders: 0 } },
    // Nothing said before the cue: the set's own measure is compared.
    { say: 'drivers that got more than the average rating', on: 'taxi', means: { said: ['more than the average rating: > avg(rating)'], orders: 0 } },
    // The aggregate's target past `or` is another phrase's: each comparison has its own subject.
    {
      say: 'orders with a quantity above the average or a unit price above the average',
      means: { said: ['above the average: > avg() of quantity', 'above the average: > avg() of unit price'], orders: 0 },
    },
    // Not a comparison with a set: a number, an aggregate shown, a superlative that sorts.
    { say: 'orders with a quantity above 3', means: { said: [], orders: 0 } },
    { say: 'the average quantity of orders', means: { said: [], orders: 0 } },
    { say: 'the order with the highest unit price', means: { said: [], orders: 2 } },
  ]; // prettier-ignore
  linkCorpus(EXAMPLES, said);
});
