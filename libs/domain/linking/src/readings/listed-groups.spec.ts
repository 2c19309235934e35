import { readingCorpus, type Example } from '../testing/corpus';

/** [GROUP BY, SELECT]. */
type Said = [groupBy: string | null, select: string | null];

describe('listed-groups', () => {
  const EXAMPLES: Example<Said>[] = [
    // A text column listed beside an aggregate, no `per` said: the aggregate is computed per it.
    { say: 'Show all segments and the number of customers.', means: ['segment', 'segment, count(*)'] },
    { say: 'List each status and the total quantity of orders.', means: ['status', 'status, sum(quantity)'] },
    // Nothing listed beside it: one figure over all rows.
    { say: 'Show the number of customers.', means: ['', 'count(*)'] },
    // The column named next to its value is a condition, not a listing.
    { say: 'How many units were sold in the sensors category in total?', means: ['', 'sum(quantity)'] },
    // Distinct values counted: one figure, not one per value.
    { say: 'How many different segments and countries are there?', means: ['', 'count(DISTINCT segment)'] },
    // The aggregate's own operand is not a group.
    { say: 'Show the average quantity of orders.', means: ['', 'avg(quantity)'] },
  ];
  readingCorpus(EXAMPLES, (_p, plan): Said => [plan?.groupBy ?? null, plan?.select ?? null]);
});
