import { readingCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';
import type { LinkSchema } from '../types';

const airports: LinkSchema = {
  streaming: false,
  values: { airports: { country: ['Greenland', 'Iceland'] } },
  tables: { airports: [{ name: 'apid', data_type: 'INTEGER' }, { name: 'name', data_type: 'VARCHAR' }, { name: 'city', data_type: 'VARCHAR' }, { name: 'country', data_type: 'VARCHAR' }] },
}; // prettier-ignore

describe('aggregates', () => {
  // The SELECT of a request that aggregates.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'What is the average humidity over all readings?', means: 'avg(humidity)' },
    { say: 'How many orders have been delivered?', means: 'count(*)' },
    { say: 'How many different customers have placed at least one order?', means: 'count(DISTINCT customer_id)' },
    { say: 'How many units were sold in the sensors category in total?', means: 'sum(quantity)' },
    {
      say: 'What is the total revenue (quantity times unit price) of all orders?',
      means: 'sum((quantity * unit_price))',
    },
    // One aggregate over a list of measures.
    { say: 'Average temperature and humidity.', means: 'avg(temperature), avg(humidity)' },
    // A superlative with nothing else ranking is max()/min().
    { say: 'What is the highest temperature ever recorded?', means: 'max(temperature)' },
    // A column named as what is counted: each value once, not the rows that have one.
    { say: 'In how many cities are there airports in Greenland?', on: airports, means: 'count(DISTINCT city)' },
    { say: 'How many airports are there in Greenland?', on: airports, means: 'count(*)' },
    // Another table's rows counted from the rows that refer to them: each one once.
    // (each paper shown by its title: counted-entities)
    { say: 'the number of authors of each paper', on: scholarSchema(), means: 'paper.title, count(DISTINCT authorid)' },
    { say: 'What is the number of papers in each venue?', on: scholarSchema(), means: 'venueid, count(*)' },
    // The time elapsed between two dates is a value like any other: averaged, per group.
    {
      say: 'the average number of hours from pickup to dropoff per borough',
      on: 'taxi',
      means: 'pu_borough, avg(hours(pickup_ts -> dropoff_ts))',
    },
    {
      say: 'the maximum time between pickup and dropoff in minutes',
      on: 'taxi',
      means: 'max(minutes(pickup_ts -> dropoff_ts))',
    },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.select ?? null);
});
