import { linkRequest } from '../link';
import { proposePlan } from '../propose';
import type { LinkSchema } from '../types';
import { readingCorpus, type Example } from '../testing/corpus';
import { demoSchema } from '../testing/fixtures';

/** Two columns holding the same airport codes, told apart by the preposition in their names. */
const fares: LinkSchema = {
  streaming: false,
  tables: {
    fare: [
      { name: 'fare_id', data_type: 'INTEGER' },
      { name: 'from_airport', data_type: 'VARCHAR' },
      { name: 'to_airport', data_type: 'VARCHAR' },
      { name: 'round_trip_cost', data_type: 'DOUBLE' },
    ],
  },
  values: { fare: { from_airport: ['JFK', 'LAX', 'ORD'], to_airport: ['JFK', 'LAX', 'ORD'] } },
};

/** Nurses whose position column also holds the word `Nurse`. */
const nurses: LinkSchema = {
  streaming: false,
  tables: { Nurse: [{ name: 'EmployeeID', data_type: 'INTEGER' }, { name: 'Name', data_type: 'VARCHAR' }, { name: 'Position', data_type: 'VARCHAR' }] },
  values: { Nurse: { Position: ['Head Nurse', 'Nurse'] } },
}; // prettier-ignore

describe('values', () => {
  // The WHERE a value makes.
  const EXAMPLES: Example<string | null>[] = [
    { say: 'List the names of our customers from Germany.', means: "country = 'Germany'" },
    // A word naming the table its value is in names the table: every nurse is a Nurse row.
    { say: 'Find the names of nurses.', on: nurses, means: '' },
    { say: 'Find the names of the head nurses.', on: nurses, means: "Position = 'Head Nurse'" },
    // The column said before its value, with a verb of being, a negation and quotes between.
    { say: 'Names of customers whose country is not "Germany".', means: "country != 'Germany'" },
    { say: 'Names of customers whose country is "Germany" or "France".', means: "country IN ('Germany', 'France')" },
    { say: 'Which orders were cancelled? Give the order id and the product.', means: "status = 'cancelled'" },
    {
      say: 'Show the orders in the books category or the sensors category.',
      means: "category IN ('books', 'sensors')",
    },
    { say: 'Orders that were neither cancelled nor returned.', means: "status NOT IN ('cancelled', 'returned')" },
    { say: 'Average temperature of every device except device dev-01.', means: "device_id != 'dev-01'" },
    { say: 'average rating of drivers from Newark', on: 'taxi', means: "home_city = 'Newark'" },
    // Values of two columns with `or` between: either one.
    {
      say: 'Orders that were returned or came from Germany.',
      means: "(status = 'returned' OR customers.country = 'Germany')",
    },
    {
      say: 'Orders that were returned and came from Germany.',
      means: "status = 'returned' AND customers.country = 'Germany'",
    },
    // A preposition that one column carries in its name says which column a shared value is of.
    { say: 'average round trip cost from LAX to ORD', on: fares, means: "from_airport = 'LAX' AND to_airport = 'ORD'" },
    {
      say: 'average round trip cost from Los Angeles (LAX) to Chicago (ORD)',
      on: fares,
      means: "from_airport = 'LAX' AND to_airport = 'ORD'",
    },
  ];
  readingCorpus(EXAMPLES, (_p, plan) => plan?.where ?? null);

  it('doubts values of two columns paired by `or` (`A, X or B, Y`): neither an AND of lists nor either-or', () => {
    const p = proposePlan(
      linkRequest('Orders from Germany that were returned or from France that were cancelled.', demoSchema()),
      demoSchema(),
    );
    expect(p.doubts).toContain('"or" pairs values of status and country');
    expect(p.confidence).toBe('partial');
  });

  it('leaves a shared value said without such a preposition ambiguous: a question, not a guess', () => {
    const p = proposePlan(linkRequest('average round trip cost of fares with LAX', fares), fares);
    expect(p.ambiguous).toEqual([{ phrase: 'LAX', candidates: ['from_airport', 'to_airport'] }]);
    expect(p.confidence).not.toBe('high');
  });
});
