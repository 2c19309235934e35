import type { LinkSchema } from '../types';
import { linkCorpus, type Example } from '../testing/corpus';
import { scholarSchema } from '../testing/fixtures';

/** [numerator, its implied aggregate, denominator, its implied aggregate, scale, whole]. */
type Ratio = [numerator: string, implied: string, denominator: string, implied: string, scale: number, whole: boolean];

const geography: LinkSchema = {
  streaming: false,
  values: { state: { state_name: ['California', 'Texas', 'Ohio'] }, river: { river_name: ['Mississippi', 'Rhine'] } },
  tables: {
    state: [{ name: 'state_name', data_type: 'VARCHAR' }, { name: 'population', data_type: 'INTEGER' }, { name: 'area', data_type: 'DOUBLE' }],
    river: [{ name: 'river_name', data_type: 'VARCHAR' }, { name: 'length', data_type: 'INTEGER' }],
  },
}; // prettier-ignore

describe('ratios', () => {
  const EXAMPLES: Example<Ratio[]>[] = [
    // Rows on each side: each read as a count of its own rows.
    {
      say: 'What is the ratio of restaurants with a rating above 4 to restaurants with a rating below 4?',
      on: scholarSchema(),
      means: [['restaurants with a rating above 4', 'count', 'restaurants with a rating below 4', 'count', 1, false]],
    },
    // A measure on each side: its total over the side's rows.
    {
      say: 'the ratio of the length of the Mississippi to the length of the Rhine',
      on: geography,
      means: [['the length of the Mississippi', 'sum', 'the length of the Rhine', 'sum', 1, false]],
    },
    // `per` between the sides is the separator, not a grouping; `for each` ends the denominator.
    {
      say: 'the ratio of population per area for each state',
      on: geography,
      means: [['population', 'sum', 'area', 'sum', 1, false]],
    },
    // Aggregates said on each side: none implied. `between … and`.
    {
      say: 'the ratio between the average fare and the average tip per borough',
      on: 'taxi',
      means: [['the average fare', '-', 'the average tip', '-', 1, false]],
    },
    // The denominator said as the whole: `out of`, `all`.
    {
      say: 'the ratio of Italian restaurants out of all restaurants',
      on: scholarSchema(),
      means: [['Italian restaurants', 'count', 'all restaurants', 'count', 1, true]],
    },
    // The first `to` is a verb's (`belong to more than`): the separator is the one before data.
    {
      say: 'the ratio of papers that belong to more than 1 venue to papers that belong to 1 venue',
      on: scholarSchema(),
      means: [['papers that belong to more than 1 venue', 'count', 'papers that belong to 1 venue', 'count', 1, false]],
    },
    // A share with one side: those rows out of all rows of its head noun.
    {
      say: 'What percentage of orders were returned?',
      means: [['orders were returned', 'count', 'orders', 'count', 100, true]],
    },
    {
      say: 'the proportion of enterprise customers in each country',
      means: [['enterprise customers', 'count', 'customers', 'count', 1, true]],
    },
    // A ratio with no second side is no link (its word stays unread).
    { say: 'What is the ratio of delivered orders?', means: [] },
  ];
  linkCorpus(EXAMPLES, (links) =>
    links.ratios.map((r): Ratio => [
      r.numerator.text,
      r.numerator.implied ?? '-',
      r.denominator.text,
      r.denominator.implied ?? '-',
      r.scale,
      r.whole,
    ]),
  );
});
