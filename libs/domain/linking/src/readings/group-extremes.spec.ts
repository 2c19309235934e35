import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, GROUP BY, ORDER BY, LIMIT, the rows holding each group's extreme, the reading or doubt]. */
type Said = [
  select: string | null,
  groupBy: string | null,
  orderBy: string | null,
  limit: number | null,
  extreme: string | null,
  note: string | null,
];

describe('group-extremes', () => {
  const EXAMPLES: Example<Said>[] = [
    // A limit beside `for each`/`in each`/`per`: one (or N) per group, ranked by the row's value.
    {
      say: 'for each device, the reading with the highest temperature',
      means: ['', '', '', null, 'max(temperature) per device_id', '"highest" is read within "each device": the row with the max of each group, ties kept'],
    },
    {
      say: 'the most expensive order in each category',
      means: ['', '', '', null, 'max(unit_price) per category', '"most expensive" is read within "each category": the row with the max of each group, ties kept'],
    },
    {
      say: 'the 2 orders with the lowest quantity per category',
      means: ['', '', '', null, 'top 2 min(quantity) per category', '"lowest" is read within "per category": the 2 rows with the min of each group, ties kept'],
    },
    {
      say: 'for each borough, the fare of the trip with the highest tip',
      on: 'taxi',
      means: ['', '', '', null, 'max(tipAmt) per pu_borough', '"highest" is read within "each borough": the row with the max of each group, ties kept'],
    },
    // Ranked by something computed per group: not read, never the one top row overall.
    {
      say: 'for each segment, the customer with the most orders',
      means: ['segment, count(*)', 'segment', 'count(*) desc', 1, '', '"each segment … most" ranks by something computed in each group, which is not read'],
    },
    // A superlative with no number and no sort beside it: the rows holding the extreme, not every row sorted.
    { say: 'The hottest readings.', means: ['', '', '', null, 'max(temperature)', '"hottest" is read as the rows holding the max of temperature, ties kept'] },
    // One answer said (`the driver with …`): a limit of 1, as order-limit reads it.
    { say: 'the driver with the lowest rating', on: 'taxi', means: ['', '', 'rating asc', 1, '', null] },
    // Sorted as said: an order, not an extreme.
    { say: 'Orders sorted by quantity, highest first.', means: ['', '', 'quantity desc', null, '', null] },
    // No limit: the value per group (max), not rows.
    { say: 'the highest unit price per category', means: ['category, max(unit_price)', 'category', '', null, '', null] },
    // No cue asking per group: one answer overall.
    { say: 'the 3 devices with the highest average temperature', means: ['device_id, avg(temperature)', 'device_id', 'avg(temperature) desc', 3, '', null] },
    // A stream has no rank within groups.
    {
      say: 'for each device, the reading with the highest temperature',
      on: 'stream',
      means: ['device_id, avg(temperature)', 'device_id', 'avg(temperature) desc', 1, '', '"each device … highest" asks for a rank within each group, which veloFlux cannot run'],
    },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.select ?? null,
    plan?.groupBy ?? null,
    plan?.orderBy ?? null,
    plan?.limit ?? null,
    plan?.extreme ?? null,
    [...p.readings, ...p.doubts].find(
      (d) => d.includes('within') || d.includes('in each group') || d.includes('holding'),
    ) ?? null,
  ]);
});
