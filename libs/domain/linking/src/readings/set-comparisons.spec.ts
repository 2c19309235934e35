import { readingCorpus, type Example } from '../testing/corpus';

/** [SELECT, WHERE, ORDER BY, LIMIT, the reading or doubt about the set]. */
type Said = [
  select: string | null,
  where: string | null,
  orderBy: string | null,
  limit: number | null,
  note: string | null,
];

describe('set-comparisons', () => {
  const EXAMPLES: Example<Said>[] = [
    {
      say: 'orders with a quantity above the average quantity',
      means: ['', 'quantity > (SELECT avg(quantity) FROM orders)', '', null, '"above the average quantity" is read as the avg of quantity over every row of orders'],
    },
    {
      say: 'how many readings have a temperature below the average temperature?',
      means: ['count(*)', 'temperature < (SELECT avg(temperature) FROM sensor_readings)', '', null, '"below the average temperature" is read as the avg of temperature over every row of sensor_readings'],
    },
    // The measure said before the cue is the set's too (`the average` alone).
    {
      say: 'show the products of orders whose unit price is above the average',
      means: ['product', 'unit_price > (SELECT avg(unit_price) FROM orders)', '', null, '"above the average" is read as the avg of unit_price over every row of orders'],
    },
    // A superlative as the set's value: max(), no sort, no limit.
    {
      say: 'trips with a fare less than the largest fare',
      on: 'taxi',
      means: ['', 'fare_amt < (SELECT max(fare_amt) FROM trips)', '', null, '"less than the largest fare" is read as the max of fare_amt over every row of trips'],
    },
    // The other conditions narrow the rows compared, not the set.
    {
      say: 'trips paid by card with a fare above the average fare',
      on: 'taxi',
      means: ['', "payment_type = 'card' AND fare_amt > (SELECT avg(fare_amt) FROM trips)", '', null, '"above the average fare" is read as the avg of fare_amt over every row of trips'],
    },
    // `or` between two: either one.
    {
      say: 'orders with a quantity above the average or a unit price above the average',
      means: ['', '(quantity > (SELECT avg(quantity) FROM orders) OR unit_price > (SELECT avg(unit_price) FROM orders))', '', null, '"above the average" is read as the avg of quantity over every row of orders'],
    },
    // Two different measures: a doubt, not a guess (the plan left is not conclusive).
    {
      say: 'trips with a fare above the average tip',
      on: 'taxi',
      means: ['fare_amt, tipAmt', '', '', null, '"above the average tip" compares with an aggregate, but it compares fare_amt with tipAmt'],
    },
    // A stream runs no sub-query: a doubt (the plan left is not conclusive).
    {
      say: 'vehicle speed above the average speed',
      on: 'stream',
      means: ['speed', '', '', null, '"above the average speed" compares with an aggregate, but a stream cannot be compared with a sub-query (veloFlux runs none)'],
    },
  ]; // prettier-ignore
  readingCorpus(EXAMPLES, (p, plan): Said => [
    plan?.select ?? null,
    plan?.where ?? null,
    plan?.orderBy ?? null,
    plan?.limit ?? null,
    [...p.readings, ...p.doubts].find(
      (d) =>
        d.includes('the avg') ||
        d.includes('the max') ||
        d.includes('the min') ||
        d.includes('compares with an aggregate'),
    ) ?? null,
  ]);
});
