import { checkPlan, QueryPlan } from '@nl2p/query-plan';
// The engines' shared test harness (demo data on a real DuckDB and, with POSTGRES_URL, a real
// PostgreSQL), as the plan construct tests use it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { BothEngines } from '../../../../engine/src/sql/testing/both-engines';
import { proposalOf } from '../testing/corpus';

/**
 * The readings of nested conditions (an aggregate of a set, every member of a set), counted
 * groups, ranks and group extremes, end to end: the
 * linker's plan for each request is conclusive, passes the catalog check, compiles for DuckDB and
 * PostgreSQL and returns the rows of a query written by hand another way, on the demo data. Every
 * expected answer is non-empty, so agreement is not that of two empty answers.
 */
const url = process.env.POSTGRES_URL;
const TMP = '__nl2pipeline_tmp__0123456789abcdef0123456789abcdef_2_1';

const CASES: { say: string; sql: string }[] = [
  // The rows said absent are the source's own: an EXCEPT of the same projection (except-rows).
  {
    say: 'categories except for those having an order with a unit price above 500',
    sql: 'SELECT category FROM orders EXCEPT SELECT category FROM orders WHERE unit_price > 500',
  },
  // What is said of rows said absent is inside the NOT EXISTS (absent-conditions).
  {
    say: 'names of customers who have no orders in the books category',
    sql: "SELECT c.name FROM customers c WHERE c.customer_id NOT IN (SELECT customer_id FROM orders WHERE category = 'books' AND customer_id IS NOT NULL)",
  },
  {
    say: 'orders with a quantity above the average quantity',
    sql: 'SELECT o.* FROM orders o CROSS JOIN (SELECT avg(quantity) AS a FROM orders) x WHERE o.quantity > x.a',
  },
  {
    say: 'how many readings have a temperature below the average temperature?',
    sql: 'SELECT count(*) FROM sensor_readings r WHERE NOT r.temperature >= (SELECT sum(temperature) / count(temperature) FROM sensor_readings)',
  },
  {
    say: 'orders with a unit price above every books order',
    sql: "SELECT o.* FROM orders o WHERE o.unit_price > (SELECT max(unit_price) FROM orders WHERE category = 'books')",
  },
  {
    say: 'Which countries have more than 2 customers?',
    sql: 'SELECT country, n FROM (SELECT country, count(*) AS n FROM customers GROUP BY country) g WHERE n > 2',
  },
  {
    say: 'the second highest unit price',
    sql: 'SELECT max(unit_price) FROM orders WHERE unit_price < (SELECT max(unit_price) FROM orders)',
  },
  {
    say: 'the most expensive order in each category',
    sql: 'SELECT o.* FROM orders o WHERE o.unit_price = (SELECT max(i.unit_price) FROM orders i WHERE i.category = o.category)',
  },
  {
    say: 'The hottest readings.',
    sql: 'SELECT r.* FROM sensor_readings r WHERE NOT EXISTS (SELECT 1 FROM sensor_readings h WHERE h.temperature > r.temperature)',
  },
];

describe("the linker's nested readings return the rows of hand-written SQL, on DuckDB and PostgreSQL", () => {
  const engines = new BothEngines();
  beforeAll(() => engines.start(url), 120_000);
  afterAll(() => engines.stop());

  it.each(CASES.map((c) => [c.say, c] as const))('%s', async (_say, c) => {
    const p = proposalOf(c.say);
    expect({ confidence: p.confidence, doubts: p.doubts }).toEqual({ confidence: 'high', doubts: [] });
    const checked = checkPlan(QueryPlan.parse(p.plan), engines.tables);
    if (!checked.ok) throw new Error(`the plan check refused the plan: ${checked.errors.join('; ')}`);
    const [duck, ...pg] = await engines.planBesideSql(checked.plan, c.sql, TMP);
    expect(duck?.expected.length).toBeGreaterThan(0);
    for (const r of [duck, ...pg])
      expect({ sql: r?.compiled, rows: r?.rows }).toEqual({ sql: r?.compiled, rows: r?.expected });
  });
});
