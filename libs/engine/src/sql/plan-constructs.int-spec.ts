import { checkPlan, findJoinPath, QueryPlan, type ColumnRef, type QueryPlanInput } from '@nl2p/query-plan';
import { prevalidate } from '@nl2p/sql-guard';
import { targetProfile } from '../targets';
import { BothEngines } from './testing/both-engines';

/**
 * Each construct of the plan language, compiled for DuckDB and PostgreSQL and run on the demo data
 * (the library fixture for join paths through a bridge table), must return the rows of a query
 * written by hand another way: a join where the plan says EXISTS, a max where it says ALL, a
 * string range where it says a date part. Every expected result is non-empty, so agreement is
 * not the agreement of two empty answers.
 */
const url = process.env.POSTGRES_URL;
const TMP = '__nl2pipeline_tmp__0123456789abcdef0123456789abcdef_1_1';
const col = (column: string, table?: string, part?: ColumnRef['part']) => ({
  kind: 'column' as const,
  ref: { column, ...(table ? { table } : {}), ...(part ? { part } : {}) },
});
const value = (column: string, table?: string, part?: ColumnRef['part']) => ({
  kind: 'value' as const,
  expr: col(column, table, part),
});
const str = (v: string) => ({ kind: 'string' as const, value: v });
const num = (v: number) => ({ kind: 'number' as const, value: v });

interface Case {
  name: string;
  plan: QueryPlanInput;
  /** The same question written by hand, as both databases read it. */
  sql: string;
}

const CASES: Case[] = [
  {
    name: 'comparison with an aggregate of a set (price above the average)',
    plan: { source: 'orders', select: [value('order_id')], where: { kind: 'compare_subquery', left: col('unit_price'), op: '>', subquery: { plan: { source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: col('unit_price') } }] } } } },
    sql: 'SELECT o.order_id FROM orders o CROSS JOIN (SELECT avg(unit_price) AS a FROM orders) s WHERE o.unit_price > s.a',
  },
  {
    name: 'comparison with every value of a set (> ALL)',
    plan: { source: 'orders', select: [value('order_id'), value('unit_price')], where: { kind: 'compare_subquery', left: col('unit_price'), op: '>', quantifier: 'all', subquery: { plan: { source: 'orders', select: [value('unit_price')], where: { kind: 'compare', left: col('category'), op: '=', value: str('books') } } } } },
    sql: "SELECT order_id, unit_price FROM orders WHERE unit_price > (SELECT max(unit_price) FROM orders WHERE category = 'books')",
  },
  {
    name: 'comparison with any value of a set (= ANY)',
    plan: { source: 'customers', select: [value('name')], where: { kind: 'compare_subquery', left: col('customer_id'), op: '=', quantifier: 'any', subquery: { plan: { source: 'orders', select: [value('customer_id')], where: { kind: 'compare', left: col('category'), op: '=', value: str('books') } } } } },
    sql: "SELECT c.name FROM customers c WHERE c.customer_id IN (SELECT customer_id FROM orders WHERE category = 'books')",
  },
  {
    name: 'membership (IN a sub-plan)',
    plan: { source: 'customers', select: [value('customer_id')], where: { kind: 'in_subquery', left: col('customer_id'), subquery: { plan: { source: 'orders', select: [value('customer_id')], where: { kind: 'compare', left: col('status'), op: '=', value: str('returned') } } } } },
    sql: "SELECT DISTINCT c.customer_id FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.status = 'returned'",
  },
  {
    name: 'absence (NOT IN a sub-plan)',
    plan: { source: 'customers', select: [value('customer_id')], where: { kind: 'in_subquery', left: col('customer_id'), negated: true, subquery: { plan: { source: 'orders', select: [value('customer_id')], where: { kind: 'compare', left: col('status'), op: '=', value: str('returned') } } } } },
    sql: "SELECT c.customer_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.status = 'returned' WHERE o.order_id IS NULL",
  },
  {
    name: 'existence, correlated (EXISTS)',
    plan: { source: 'devices', select: [value('device_id')], where: { kind: 'exists', subquery: { plan: { source: 'sensor_readings', where: { kind: 'compare', left: col('temperature'), op: '>', value: num(30) } }, correlate: [{ outer: { column: 'device_id' }, inner: { column: 'device_id' } }] } } },
    sql: 'SELECT DISTINCT d.device_id FROM devices d JOIN sensor_readings r ON r.device_id = d.device_id WHERE r.temperature > 30',
  },
  {
    name: 'absence, correlated (NOT EXISTS: customers who never ordered a book)',
    plan: { source: 'customers', select: [value('name')], where: { kind: 'exists', negated: true, subquery: { plan: { source: 'orders', where: { kind: 'compare', left: col('category'), op: '=', value: str('books') } }, correlate: [{ outer: { column: 'customer_id' }, inner: { column: 'customer_id' } }] } } },
    sql: "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id AND o.category = 'books' WHERE o.order_id IS NULL",
  },
  {
    name: 'set operation: INTERSECT (countries with both enterprise and consumer customers)',
    plan: { source: 'customers', select: [value('country')], where: { kind: 'compare', left: col('segment'), op: '=', value: str('enterprise') }, set_operations: [{ op: 'intersect', plan: { source: 'customers', select: [value('country')], where: { kind: 'compare', left: col('segment'), op: '=', value: str('consumer') } } }] },
    sql: "SELECT country FROM customers WHERE segment IN ('enterprise', 'consumer') GROUP BY country HAVING count(DISTINCT segment) = 2",
  },
  {
    name: 'set operation: EXCEPT (countries with consumers but no enterprise)',
    plan: { source: 'customers', select: [value('country')], where: { kind: 'compare', left: col('segment'), op: '=', value: str('consumer') }, set_operations: [{ op: 'except', plan: { source: 'customers', select: [value('country')], where: { kind: 'compare', left: col('segment'), op: '=', value: str('enterprise') } } }] },
    sql: "SELECT DISTINCT country FROM customers WHERE segment = 'consumer' AND country NOT IN (SELECT country FROM customers WHERE segment = 'enterprise')",
  },
  {
    name: 'set operations left to right, sorted and limited once (UNION then EXCEPT)',
    plan: { source: 'orders', select: [value('product')], where: { kind: 'compare', left: col('category'), op: '=', value: str('books') }, set_operations: [{ op: 'union', plan: { source: 'orders', select: [value('product')], where: { kind: 'compare', left: col('category'), op: '=', value: str('home') } } }, { op: 'except', plan: { source: 'orders', select: [value('product')], where: { kind: 'text', column: { column: 'product' }, match: 'starts_with', value: 'office' } } }], order_by: [{ key: { kind: 'output', index: 0 }, direction: 'asc' }], limit: 3 },
    sql: "SELECT DISTINCT product FROM orders WHERE category IN ('books', 'home') AND product <> 'Office Chair' ORDER BY product LIMIT 3",
  },
  {
    name: 'the row holding each group\'s extreme (each customer\'s largest orders, ties kept)',
    plan: { source: 'orders', select: [value('customer_id'), value('order_id'), value('quantity')], extreme_per_group: { per: [{ column: 'customer_id' }], by: col('quantity'), extreme: 'max' } },
    sql: 'SELECT o.customer_id, o.order_id, o.quantity FROM orders o WHERE o.quantity = (SELECT max(x.quantity) FROM orders x WHERE x.customer_id = o.customer_id)',
  },
  {
    name: 'the row holding the overall extreme, through a join (the customer with the dearest order)',
    plan: { source: 'orders', joins: [{ table: 'customers', on: [{ left: { column: 'customer_id' }, right: { column: 'customer_id' } }] }], select: [value('name'), value('product')], extreme_per_group: { by: col('unit_price'), extreme: 'max' } },
    sql: 'SELECT c.name, o.product FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.unit_price = (SELECT max(unit_price) FROM orders)',
  },
  {
    name: 'the two highest per group, after WHERE, a missing group its own (two longest books under 400 pages per publisher)',
    plan: { source: 'books', select: [value('publisher_id'), value('title')], where: { kind: 'compare', left: col('pages'), op: '<', value: num(400) }, extreme_per_group: { per: [{ column: 'publisher_id' }], by: col('pages'), extreme: 'max', count: 2 } },
    sql: 'SELECT b.publisher_id, b.title FROM books b WHERE b.pages < 400 AND (SELECT count(*) FROM books x WHERE x.pages < 400 AND x.publisher_id IS NOT DISTINCT FROM b.publisher_id AND x.pages > b.pages) < 2',
  },
  {
    name: 'count distinct, HAVING count(*) > n, ordered by an aggregate',
    plan: { source: 'orders', select: [value('customer_id'), { kind: 'aggregate', aggregate: { fn: 'count', arg: col('product'), distinct: true } }], having: [{ aggregate: { fn: 'count' }, op: '>', value: 25 }], order_by: [{ key: { kind: 'aggregate', aggregate: { fn: 'count' } }, direction: 'desc' }] },
    sql: 'SELECT customer_id, count(DISTINCT product) FROM orders GROUP BY customer_id HAVING count(*) > 25',
  },
  {
    name: 'LIMIT with OFFSET (the second highest price)',
    plan: { source: 'orders', distinct: true, select: [value('unit_price')], order_by: [{ key: { kind: 'output', index: 0 }, direction: 'desc' }], limit: 1, offset: 1 },
    sql: 'SELECT max(unit_price) FROM orders WHERE unit_price < (SELECT max(unit_price) FROM orders)',
  },
  {
    name: 'ordering by an expression',
    plan: { source: 'orders', select: [value('order_id')], order_by: [{ key: { kind: 'value', expr: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } }, direction: 'desc' }, { key: { kind: 'output', index: 0 }, direction: 'asc' }], limit: 5 },
    sql: 'SELECT order_id FROM orders ORDER BY quantity * unit_price DESC, order_id LIMIT 5',
  },
  {
    name: 'a year part (devices installed in 2023)',
    plan: { source: 'devices', select: [value('device_id')], where: { kind: 'compare', left: col('installed_at', undefined, 'year'), op: '=', value: num(2023) } },
    sql: "SELECT device_id FROM devices WHERE installed_at >= TIMESTAMP '2023-01-01 00:00:00' AND installed_at < TIMESTAMP '2024-01-01 00:00:00'",
  },
  {
    name: 'per month of the year (a month part as a group key)',
    plan: { source: 'orders', select: [value('ordered_at', undefined, 'month'), { kind: 'aggregate', aggregate: { fn: 'count' } }] },
    sql: 'SELECT CAST(substr(CAST(ordered_at AS VARCHAR), 6, 2) AS INTEGER) AS m, count(*) FROM orders GROUP BY m',
  },
  {
    name: 'on weekdays (a day-of-week part between Monday and Friday)',
    plan: { source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }], where: { kind: 'between', column: { column: 'ordered_at', part: 'day_of_week' }, low: num(1), high: num(5) } },
    sql: 'SELECT count(*) FROM orders WHERE extract(isodow FROM ordered_at) < 6',
  },
  {
    name: 'an hour part, shown and sorted',
    plan: { source: 'sensor_readings', select: [value('ts', undefined, 'hour'), { kind: 'aggregate', aggregate: { fn: 'max', arg: col('temperature') } }], where: { kind: 'compare', left: col('temperature'), op: '>', value: num(30) }, order_by: [{ key: { kind: 'output', index: 0 }, direction: 'asc' }] },
    sql: 'SELECT CAST(substr(CAST(ts AS VARCHAR), 12, 2) AS INTEGER) AS h, max(temperature) FROM sensor_readings WHERE temperature > 30 GROUP BY h',
  },
  {
    name: 'case-insensitive equality',
    plan: { source: 'customers', select: [value('name')], where: { kind: 'text', column: { column: 'country' }, match: 'equals', value: 'GERMANY' } },
    sql: "SELECT name FROM customers WHERE country = 'Germany'",
  },
  {
    name: 'a join path through a bridge table, grouped by a name reached through it (books per author)',
    plan: { source: 'authors', joins: 'authors→books', select: [value('name'), { kind: 'aggregate', aggregate: { fn: 'count', arg: col('book_id', 'books') } }] } as unknown as QueryPlanInput,
    sql: 'SELECT a.name, count(b.book_id) FROM authors a JOIN book_authors ba ON ba.author_id = a.author_id JOIN books b ON b.book_id = ba.book_id GROUP BY a.name',
  },
  {
    name: 'a path of three hops (authors published in Germany), with a nested condition',
    plan: { source: 'authors', joins: 'authors→publishers', distinct: true, select: [value('name', 'authors')], where: { kind: 'and', conditions: [{ kind: 'compare', left: col('country', 'publishers'), op: '=', value: str('Germany') }, { kind: 'compare_subquery', left: col('pages', 'books'), op: '>=', subquery: { plan: { source: 'books', select: [{ kind: 'aggregate', aggregate: { fn: 'avg', arg: col('pages') } }] } } }] } } as unknown as QueryPlanInput,
    sql: "SELECT DISTINCT a.name FROM authors a JOIN book_authors ba ON ba.author_id = a.author_id JOIN books b ON b.book_id = ba.book_id JOIN publishers p ON p.publisher_id = b.publisher_id WHERE p.country = 'Germany' AND b.pages >= (SELECT avg(pages) FROM books)",
  },
  {
    name: 'authors older than every author published by Harbor Books (> ALL with NULL birth years left aside)',
    plan: { source: 'authors', select: [value('name')], where: { kind: 'compare_subquery', left: col('born'), op: '<', quantifier: 'all', subquery: { plan: { source: 'authors', joins: 'authors→publishers', select: [value('born', 'authors')], where: { kind: 'compare', left: col('name', 'publishers'), op: '=', value: str('Harbor Books') } } } } } as unknown as QueryPlanInput,
    sql: "SELECT name FROM authors WHERE born < (SELECT min(a.born) FROM authors a JOIN book_authors ba ON ba.author_id = a.author_id JOIN books b ON b.book_id = ba.book_id JOIN publishers p ON p.publisher_id = b.publisher_id WHERE p.name = 'Harbor Books')",
  },
  {
    name: 'a ratio of two filtered counts per group (delivered orders per pending order, by category)',
    plan: { source: 'orders', select: [value('category'), { kind: 'measure', expr: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'count' }, filter: { kind: 'compare', left: col('status'), op: '=', value: str('delivered') } }, right: { kind: 'aggregate', aggregate: { fn: 'count' }, filter: { kind: 'compare', left: col('status'), op: '=', value: str('pending') } } } }] },
    sql: "SELECT category, sum(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) * 1.0 / NULLIF(sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END), 0) FROM orders GROUP BY category",
  },
  {
    name: 'a share as a percentage, the filter beside a WHERE (books in the revenue of delivered orders)',
    plan: { source: 'orders', select: [{ kind: 'measure', expr: { kind: 'arith', op: '*', left: { kind: 'number', value: 100 }, right: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } }, filter: { kind: 'compare', left: col('category'), op: '=', value: str('books') } }, right: { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'arith', op: '*', left: col('quantity'), right: col('unit_price') } } } } } }], where: { kind: 'compare', left: col('status'), op: '=', value: str('delivered') } },
    sql: "SELECT 100.0 * (SELECT sum(quantity * unit_price) FROM orders WHERE status = 'delivered' AND category = 'books') / (SELECT sum(quantity * unit_price) FROM orders WHERE status = 'delivered')",
  },
  {
    name: 'a ratio of two aggregates through a join, with a filter on the joined table (enterprise share of each country\'s orders)',
    plan: { source: 'orders', joins: [{ table: 'customers', on: [{ left: { column: 'customer_id' }, right: { column: 'customer_id' } }] }], select: [value('country', 'customers'), { kind: 'measure', expr: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'count', arg: col('order_id', 'orders'), distinct: true }, filter: { kind: 'compare', left: col('segment', 'customers'), op: '=', value: str('enterprise') } }, right: { kind: 'aggregate', aggregate: { fn: 'count', arg: col('order_id', 'orders'), distinct: true } } } }] },
    sql: "SELECT c.country, CAST(count(DISTINCT CASE WHEN c.segment = 'enterprise' THEN o.order_id END) AS DOUBLE PRECISION) / count(DISTINCT o.order_id) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.country",
  },
  {
    name: 'each group\'s share of the whole (each category\'s share of the delivered orders)',
    plan: { source: 'orders', select: [value('category'), { kind: 'measure', expr: { kind: 'arith', op: '/', left: { kind: 'aggregate', aggregate: { fn: 'count' } }, right: { kind: 'aggregate', aggregate: { fn: 'count' }, all_groups: true } } }], where: { kind: 'compare', left: col('status'), op: '=', value: str('delivered') } },
    sql: "SELECT category, count(*) * 1.0 / (SELECT count(*) FROM orders WHERE status = 'delivered') FROM orders WHERE status = 'delivered' GROUP BY category",
  },
  {
    name: 'the time elapsed between two time columns (days from installation to each reading, per device)',
    plan: { source: 'sensor_readings', joins: [{ table: 'devices', on: [{ left: { column: 'device_id' }, right: { column: 'device_id' } }] }], select: [value('device_id', 'sensor_readings'), { kind: 'aggregate', aggregate: { fn: 'max', arg: { kind: 'elapsed', unit: 'day', from: { table: 'devices', column: 'installed_at' }, to: { table: 'sensor_readings', column: 'ts' } } } }] },
    sql: 'SELECT r.device_id, max(extract(epoch FROM (r.ts - d.installed_at)) / 86400.0) FROM sensor_readings r JOIN devices d ON d.device_id = r.device_id GROUP BY r.device_id',
  },
  {
    name: 'bounds relative to the day the query runs (before this month, within the last 100 years)',
    plan: { source: 'orders', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }], where: { kind: 'and', conditions: [{ kind: 'compare', left: col('ordered_at'), op: '<', value: { kind: 'timestamp', value: '2024-01-01 00:00:00', relative: { amount: 0, unit: 'month', start_of: 'month' } } }, { kind: 'compare', left: col('ordered_at'), op: '>=', value: { kind: 'timestamp', value: '2024-01-01 00:00:00', relative: { amount: -100, unit: 'year', start_of: 'year' } } }] } },
    sql: 'SELECT count(*) FROM orders WHERE extract(year FROM ordered_at) * 12 + extract(month FROM ordered_at) < extract(year FROM CURRENT_DATE) * 12 + extract(month FROM CURRENT_DATE) AND extract(year FROM ordered_at) >= extract(year FROM CURRENT_DATE) - 100',
  },
]; // prettier-ignore

describe('each plan construct returns the rows of a hand-written query, on DuckDB and PostgreSQL', () => {
  const engines = new BothEngines();
  beforeAll(() => engines.start(url), 120_000);
  afterAll(() => engines.stop());

  /** `joins: 'a→b'` in a case: the shortest join path the declared keys give. */
  function withPaths(input: QueryPlanInput): QueryPlanInput {
    const visit = (p: QueryPlanInput): QueryPlanInput => {
      const path = typeof p.joins === 'string' ? (p.joins as string).split('→') : null;
      const found = path ? findJoinPath(engines.keyed, path[0], path.slice(1)) : null;
      if (path && !found) throw new Error(`no join path ${path.join('→')}`);
      const where = p.where && 'subquery' in p.where ? { ...p.where, subquery: { ...p.where.subquery, plan: visit(p.where.subquery.plan) } } : p.where?.kind === 'and' ? { ...p.where, conditions: p.where.conditions.map((c) => ('subquery' in c ? { ...c, subquery: { ...c.subquery, plan: visit(c.subquery.plan) } } : c)) } : p.where;
      return { ...p, ...(found ? { joins: found.joins } : {}), where };
    }; // prettier-ignore
    return visit(input);
  }

  it('both adapters read the keys the library declares, and the demo tables stay without foreign keys', async () => {
    const keysOf = (streams: { name: string; primaryKey?: string[]; foreignKeys?: unknown[] }[]) =>
      Object.fromEntries(
        streams.map((s) => [s.name, { primaryKey: s.primaryKey ?? null, foreignKeys: s.foreignKeys ?? [] }]),
      );
    const duck = keysOf(await engines.duck.listStreams());
    expect(duck.book_authors).toEqual({
      primaryKey: null,
      foreignKeys: [
        { columns: ['author_id'], references: { table: 'authors', columns: ['author_id'] } },
        { columns: ['book_id'], references: { table: 'books', columns: ['book_id'] } },
      ],
    });
    expect(duck.customers).toEqual({ primaryKey: ['customer_id'], foreignKeys: [] });
    if (!engines.pg) return;
    expect(keysOf(await engines.pg.listStreams())).toEqual(duck);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const checked = checkPlan(QueryPlan.parse(withPaths(c.plan)), engines.tables);
    if (!checked.ok) throw new Error(`the plan check refused the plan: ${checked.errors.join('; ')}`);
    const duckSql = targetProfile('duckdb').compiler.compile(checked.plan, engines.tables).sql;
    // The local check the turn runs next (prevalidate) must accept what the compiler wrote.
    const functions = (await engines.duck.loadCatalog()).functions;
    const local = prevalidate(duckSql, {
      dialect: 'duckdb',
      streams: Object.keys(engines.tables),
      stream: checked.plan.source,
      columns: engines.tables[checked.plan.source],
      columnsByTable: engines.tables,
      functions,
    });
    expect({ duckSql, errors: local.ok ? [] : local.errors }).toEqual({ duckSql, errors: [] });
    const [duck, ...pg] = await engines.planBesideSql(checked.plan, c.sql, TMP);
    expect(duck?.expected.length).toBeGreaterThan(0);
    for (const r of [duck, ...pg])
      expect({ sql: r?.compiled, rows: r?.rows }).toEqual({ sql: r?.compiled, rows: r?.expected });
  });
});
