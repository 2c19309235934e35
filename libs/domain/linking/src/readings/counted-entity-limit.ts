import type { ReadingRule } from './state';

/**
 * `the name of airline which runs the most routes`: a superlative about an entity said in the
 * singular asks for one, as `the airline` would (one-answer), when no number is said. Runs after
 * order-limit, which decides the order and the limit said.
 */
export const countedEntityLimit: ReadingRule = {
  name: 'counted-entity-limit',
  apply(s) {
    if (!s.oneEntity || s.limit !== null || !s.orderBy.length) return;
    s.limit = 1;
    s.readings.push('one answer: the entity is said in the singular');
  },
};
