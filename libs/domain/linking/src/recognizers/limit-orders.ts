import { slice, type LinkRule } from './rule';

/** Each limit (`top 3`, `the 10 most recent`) as an order with a limit and nothing yet to sort on. */
export const limitOrders: LinkRule = {
  name: 'limit-orders',
  apply(s) {
    for (const l of s.limits) {
      s.orders.push({
        start: l.start,
        end: l.end,
        text: slice(s, l.start, l.end),
        direction: null,
        limit: l.limit,
        ...(l.offset ? { offset: l.offset } : {}),
        key: null,
        hinted: [],
      });
    }
  },
};
