import { isTableMention } from './lookup';
import { isGrouped, type ReadingRule } from './state';

/**
 * DISTINCT rows, when nothing is aggregated or grouped: said (`distinct`, `each … once`), or a
 * limit ranking a column's values rather than the table's rows (`the 3 most common cities`).
 */
export const distinct: ReadingRule = {
  name: 'distinct',
  apply(s) {
    const head = s.limitHead;
    s.distinct =
      !s.aggregates.length &&
      !isGrouped(s) &&
      !s.extreme &&
      (s.links.distinct || (!!head && !isTableMention(s, head.term) && s.select.length > 0));
  },
};
