import type { Column } from '@nl2p/envelope';
import { prevalidate } from './prevalidate';
import type { Grounding, SqlDialect } from './types';

const cols = (...names: string[]): Column[] => names.map((name) => ({ name, data_type: 'varchar' }));

function grounding(dialect: SqlDialect, extra: Partial<Grounding> = {}): Grounding {
  return {
    dialect,
    streams: ['orders', 'customers'],
    stream: 'orders',
    columns: cols('id', 'customer_id', 'amount', 'created_at', 'status', 'meta'),
    columnsByTable: { customers: cols('id', 'name', 'country') },
    functions: [],
    ...extra,
  };
}

const FUNCTIONS = [
  'sum',
  'count',
  'avg',
  'date_trunc',
  'lower',
  'now',
  'row_number',
  'percentile_cont',
  'generate_series',
  'list_transform',
  'unnest',
].map((name) => ({ name, aliases: [] }));

function errorsOf(sql: string, g: Grounding): string[] {
  const result = prevalidate(sql, g);
  return result.ok ? [] : result.errors;
}

describe.each<SqlDialect>(['duckdb', 'postgres'])('prevalidate (%s)', (dialect) => {
  const G = grounding(dialect);
  const GF = grounding(dialect, { functions: FUNCTIONS });

  it.each([
    'SELECT status, sum(amount) AS total FROM orders GROUP BY status ORDER BY total DESC LIMIT 10',
    'WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT count(*) FROM big',
    'WITH big (n) AS (SELECT count(*) FROM orders) SELECT n FROM big',
    "SELECT o.id, c.name FROM orders o JOIN customers AS c ON o.customer_id = c.id WHERE c.country = 'DE'",
    'SELECT o.* FROM orders AS o LEFT JOIN customers c USING (id)',
    "SELECT date_trunc('day', created_at) AS day, count(*) FROM orders GROUP BY 1 ORDER BY 1",
    "SELECT id FROM orders WHERE status IS NOT NULL AND status LIKE 'open%' AND amount IS DISTINCT FROM 0",
    'SELECT amount::numeric(10,2), CAST(amount AS double precision), created_at::timestamp with time zone FROM orders',
    'SELECT EXTRACT(epoch FROM created_at), EXTRACT(year FROM created_at) FROM orders',
    "SELECT created_at - INTERVAL '1 day' FROM orders",
    'SELECT sub.total FROM (SELECT sum(amount) AS total FROM orders) sub',
    'SELECT count FROM (SELECT count(*) FROM orders) x',
    'SELECT x FROM generate_series(1, 3) AS g(x)',
    'SELECT row_number() OVER w FROM orders WINDOW w AS (PARTITION BY status ORDER BY id)',
    'SELECT sum(amount) OVER (PARTITION BY status ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders',
    'SELECT DISTINCT ON (status) status, id FROM orders ORDER BY status, id NULLS LAST',
    'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) FROM orders',
    "SELECT count(*) FILTER (WHERE status = 'open') FROM orders",
    "SELECT id FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE country = 'DE')",
    'SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = orders.customer_id)',
    "SELECT id, CASE WHEN amount > 10 THEN 'big' ELSE 'small' END size FROM orders",
    "SELECT trim(BOTH ' ' FROM status), substring(status FROM 2 FOR 3) FROM orders",
    "SELECT meta->>'k', meta->'a'->'b' FROM orders",
    'SELECT id FROM public.orders',
    'SELECT "id", "status" FROM "orders"',
    "SELECT id FROM orders WHERE status = 'DROP TABLE orders; --'",
    'SELECT a.id FROM orders a, customers b WHERE a.customer_id = b.id',
    'SELECT o.id FROM orders o CROSS JOIN LATERAL (SELECT 1 AS one) l',
    'SELECT lower(status) COLLATE "C" FROM orders',
    'SELECT id FROM orders UNION ALL SELECT id FROM customers',
  ])('accepts %s', (sql) => {
    expect(errorsOf(sql, G)).toEqual([]);
    expect(errorsOf(sql, GF)).toEqual([]);
  });

  it.each<[string, string]>([
    [
      'SELECT idd FROM orders',
      "unknown column 'idd'; did you mean 'id'?; available columns: id, customer_id, amount, created_at, status, meta, name, country",
    ],
    ['SELECT id FROM orders WHERE stauts = 1', "unknown column 'stauts'; did you mean 'status'?"],
    ['SELECT id FROM orderz', "unknown table 'orderz'; did you mean 'orders'?; known tables: orders, customers"],
    ['SELECT id FROM orders JOIN custmers ON true', "unknown table 'custmers'"],
    ['SELECT c.nme FROM customers c', "unknown column 'nme' in table 'customers'; did you mean 'name'?"],
    ['SELECT o.name FROM orders o', "unknown column 'name' in table 'orders'"],
    ['SELECT id FROM orders WHERE status = "open"', "write a string literal in single quotes: 'open'"],
    ['DELETE FROM orders', 'only a single SELECT statement is allowed (found DELETE)'],
    ['WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x', 'found DELETE'],
    ['WITH x AS (SELECT 1) DELETE FROM orders', 'found DELETE'],
    ['SELECT 1; DROP TABLE orders', 'found DROP'],
    ['SELECT id INTO backup FROM orders', 'found INTO'],
    ["SELECT * FROM read_csv('/etc/passwd')", 'remove read_csv()'],
    ["SELECT * FROM '/etc/passwd'", 'reads a file'],
    ['SELECT $$x$$ FROM orders', 'dollar-quoted strings'],
  ])('rejects %s', (sql, expected) => {
    const result = prevalidate(sql, G);
    expect(result.ok).toBe(false);
    expect(errorsOf(sql, G).join('\n')).toContain(expected);
  });

  it('checks functions only when a catalog is given', () => {
    expect(errorsOf('SELECT sum_it(amount) FROM orders', G)).toEqual([]);
    expect(errorsOf('SELECT sum_it(amount) FROM orders', GF).join('\n')).toContain(
      "unknown function 'sum_it'; did you mean sum()?",
    );
    expect(errorsOf("SELECT coalesce(amount, 0), nullif(status, '') FROM orders", GF)).toEqual([]);
  });

  it('checks columns only when some are known, and tables only when some are known', () => {
    const bare: Grounding = { dialect, streams: [], stream: '', columns: [], functions: [] };
    expect(errorsOf('SELECT anything FROM anywhere', bare)).toEqual([]);
  });

  it('allows veloFlux-only restrictions that SQL databases do not have', () => {
    expect(errorsOf("SELECT id FROM orders WHERE status IS NULL OR status || 'x' LIKE 'a%'", G)).toEqual([]);
  });
});

describe('prevalidate (duckdb only)', () => {
  const G = grounding('duckdb', { functions: FUNCTIONS });
  it.each([
    'SELECT * EXCLUDE (status) FROM orders',
    'FROM orders SELECT id',
    'SELECT list_transform([1, 2], x -> x + 1) FROM orders',
    'SELECT id FROM orders QUALIFY row_number() OVER (PARTITION BY status ORDER BY amount DESC) = 1',
    'SELECT id FROM orders GROUP BY ALL',
    "SELECT {'a': 1} AS s, [1, 2] AS l FROM orders",
  ])('accepts %s', (sql) => {
    expect(errorsOf(sql, G)).toEqual([]);
  });
});

describe('prevalidate (postgres only)', () => {
  it('rejects DuckDB FROM-first', () => {
    expect(errorsOf('FROM orders SELECT id', grounding('postgres')).join('\n')).toContain('found FROM');
  });
});
