import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [SELECT, WHERE, GROUP BY, conclusive]; a doubt instead when the sides do not compose. */
type Read = [select: string, where: string, groupBy: string, conclusive: boolean] | { doubt: string };

const geography: LinkSchema = {
  streaming: false,
  values: { state: { state_name: ['California', 'Texas', 'Ohio'] }, river: { river_name: ['Mississippi', 'Rhine'] } },
  tables: {
    state: [{ name: 'state_name', data_type: 'VARCHAR' }, { name: 'population', data_type: 'INTEGER' }, { name: 'area', data_type: 'DOUBLE' }],
    river: [{ name: 'river_name', data_type: 'VARCHAR' }, { name: 'length', data_type: 'INTEGER' }],
  },
}; // prettier-ignore

describe('ratios (a composition)', () => {
  const scholar = scholarSchema();
  const EXAMPLES: Example<Read>[] = [
    // Each side's rows counted, each count filtered by its own condition.
    {
      say: 'What is the ratio of restaurants with a rating above 4 to restaurants with a rating below 4?',
      on: scholar,
      means: ['count(*) FILTER (WHERE rating > 4) / count(*) FILTER (WHERE rating < 4)', '', '', true],
    },
    // What both sides hold is the WHERE; a condition said after a contrast holds for both.
    {
      say: 'the ratio of Italian restaurants to Mexican restaurants with a rating above 4',
      on: scholar,
      means: [
        "count(*) FILTER (WHERE food_type = 'Italian') / count(*) FILTER (WHERE food_type = 'Mexican')",
        'rating > 4',
        '',
        true,
      ],
    },
    // The whole, said with `out of all`: its condition holds for both sides.
    {
      say: 'the ratio of Italian restaurants out of all restaurants with a rating above 4',
      on: scholar,
      means: ["count(*) FILTER (WHERE food_type = 'Italian') / count(*)", 'rating > 4', '', true],
    },
    // A share of one side: 100 times those rows out of all of them, per group.
    {
      say: 'What percentage of orders were cancelled for each category?',
      means: ["category, 100 * (count(*) FILTER (WHERE status = 'cancelled') / count(*))", '', 'category', true],
    },
    {
      say: 'the proportion of trips paid by cash per borough',
      on: 'taxi',
      means: ["pu_borough, count(*) FILTER (WHERE payment_type = 'cash') / count(*)", '', 'pu_borough', true],
    },
    {
      say: 'the proportion of enterprise customers in each country',
      means: ["country, count(*) FILTER (WHERE segment = 'enterprise') / count(*)", '', 'country', true],
    },
    // Measures on each side: their totals over each side's rows.
    {
      say: 'What is the ratio of the population of California to the population of Texas?',
      on: geography,
      means: [
        "sum(population) FILTER (WHERE state_name = 'California') / sum(population) FILTER (WHERE state_name = 'Texas')",
        '',
        '',
        true,
      ],
    },
    // Aggregates said on each side, per group.
    {
      say: 'the ratio between the average fare and the average tip per borough',
      on: 'taxi',
      means: ['pu_borough, avg(fare_amt) / avg(tipAmt)', '', 'pu_borough', true],
    },
    // Two measures of one row and nothing else: divided row by row.
    {
      say: 'the ratio of population to area of each state',
      on: geography,
      means: ['state_name, (population / area)', '', '', true],
    },
    // Per group over the whole: the denominator is every group's together.
    {
      say: 'the ratio of the number of orders in each category to the total number of orders',
      means: ['category, count(*) / count(*) OVER ALL', '', 'category', true],
    },
    {
      say: 'What share of the trips did each vendor make?',
      on: 'taxi',
      means: ['vendor_name, count(*) / count(*) OVER ALL', '', 'vendor_name', true],
    },
    // A difference: the same two sides, subtracted; a side naming no data shares the other's noun.
    {
      say: 'What is the difference between the highest and the lowest unit price?',
      means: ['max(unit_price) - min(unit_price)', '', '', true],
    },
    {
      say: 'the difference between the average temperature and the average humidity per device',
      means: ['device_id, avg(temperature) - avg(humidity)', '', 'device_id', true],
    },
    {
      say: 'the difference between fare and tip of each trip',
      on: 'taxi',
      means: ['trip_id, (fare_amt - tipAmt)', '', '', true],
    },
    // Sides on different tables with nothing joining them: not composed, and the turn says so.
    {
      say: 'the ratio of rivers to states',
      on: geography,
      means: { doubt: '"ratio of rivers to states": the sides read from river and state' },
    },
  ];
  readingCorpus(EXAMPLES, (p, plan): Read => {
    const doubt = p.doubts.find((d) => d.startsWith('"ratio'));
    if (doubt) return { doubt };
    return [plan?.select ?? '', plan?.where ?? '', plan?.groupBy ?? '', p.confidence === 'high'];
  });
});
