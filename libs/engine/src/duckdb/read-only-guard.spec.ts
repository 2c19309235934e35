import {
  checkSingleSelect,
  previewQuery,
  RefusedQueryError,
  assertSingleSelectQuery,
  stripTrailingSemicolons,
} from './read-only-guard';
import { TargetQueryError } from '../port';

describe('checkSingleSelect', () => {
  it.each([
    'SELECT device_id, avg(temperature) AS t FROM sensor_readings GROUP BY device_id',
    "SELECT time_bucket(INTERVAL '10 seconds', ts) AS b, max(temperature) FROM sensor_readings GROUP BY 1 ORDER BY 1 LIMIT 5",
    "SELECT date_trunc('hour', ts), count(*) FILTER (WHERE temperature > 30) FROM sensor_readings GROUP BY 1",
    'WITH hot AS (SELECT * FROM sensor_readings WHERE temperature > 30) SELECT device_id, count(*) FROM hot GROUP BY device_id',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r',
    "SELECT o.order_id, c.name FROM orders o JOIN customers c USING (customer_id) WHERE o.status <> 'cancelled'",
    'SELECT device_id, row_number() OVER (PARTITION BY device_id ORDER BY ts DESC) AS rn FROM sensor_readings',
    'SELECT 1 UNION ALL SELECT 2',
    '(SELECT 1)',
    'SELECT 1;',
    'SELECT 1 -- trailing comment',
    "SELECT 'DROP TABLE orders; DELETE FROM x' AS harmless_text",
    "SELECT regexp_matches(device_id, '^dev-\\d+$'), 'it''s' AS quoted FROM sensor_readings",
  ])('accepts %s', (sql) => {
    expect(checkSingleSelect(sql)).toEqual({ ok: true });
  });

  it.each([
    ['', 'parse', /empty/],
    ['DROP TABLE orders', 'not_select', /only SELECT is allowed; found DROP/],
    ['SELECT 1; DROP TABLE orders', 'not_select', /exactly one statement is allowed; found 2/],
    ['SELECT 1; SELECT 2', 'not_select', /found 2/],
    ['WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x', 'parse', /could not be read/],
    ['INSERT INTO orders VALUES (1)', 'not_select', /found INSERT/],
    ['UPDATE orders SET quantity = 0', 'not_select', /found UPDATE/],
    ['CREATE TABLE x AS SELECT 1', 'not_select', /found CREATE/],
    ['SELECT * INTO stolen FROM customers', 'forbidden', /SELECT … INTO/],
    ["COPY orders TO '/tmp/x.csv'", 'parse', /could not be read/],
    ["ATTACH 'x.db' AS x", 'parse', /could not be read/],
    ["PRAGMA table_info('orders')", 'parse', /could not be read/],
    ['SET x = 1', 'not_select', /found SET/],
    ['SHOW TABLES', 'not_select', /found SHOW/],
    ['BEGIN', 'not_select', /found TRANSACTION/],
    ['CALL foo()', 'not_select', /found CALL/],
    ["SELECT * FROM read_csv('/etc/passwd')", 'forbidden', /read_csv is not allowed/],
    ["SELECT pg_catalog.pg_read_file('/etc/passwd')", 'forbidden', /pg_read_file is not allowed/],
    ['SELECT "NEXTVAL"(\'s\')', 'forbidden', /nextval is not allowed/],
    ["SELECT * FROM orders WHERE order_id IN (SELECT setval('s', 1))", 'forbidden', /setval/],
    ['SELECT a FROM t GROUP BY ALL', 'parse', /engine-specific shorthands/],
    [String.raw`SELECT '\'; DROP TABLE orders; --' AS x`, 'forbidden', /backslash before a quote/],
    ['SELECT [1, 2]', 'parse', /\(unexpected "\[" at line 1, column 8\)/],
    ['SELECT device_id FROM sensor_readings WHERE', 'parse', /\(unexpected end of input at line 1, column 44\)/],
    ['SELECT * FROM t FOR UPDATE', 'parse', /could not be read/],
    [`SELECT '${'x'.repeat(100_001)}'`, 'forbidden', /limit is 100000/],
  ])('refuses %s', (sql, cause, reason) => {
    const verdict = checkSingleSelect(sql);
    expect(verdict).toMatchObject({ ok: false, cause });
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('throws a RefusedQueryError, which is a TargetQueryError, from the assert form', () => {
    expect(() => assertSingleSelectQuery('SELECT 1')).not.toThrow();
    const error: unknown = (() => {
      try {
        assertSingleSelectQuery('DELETE FROM orders');
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(RefusedQueryError);
    expect(error).toBeInstanceOf(TargetQueryError);
    expect(error).toMatchObject({
      refusal: 'not_select',
      message: 'refused before reaching the database: only SELECT is allowed; found DELETE',
    });
  });
});

describe('previewQuery', () => {
  it('nests the SELECT with a limit, tolerating trailing semicolons and comments', () => {
    expect(stripTrailingSemicolons('SELECT 1 ; ;\n')).toBe('SELECT 1');
    expect(previewQuery('SELECT 1;', 21)).toBe('SELECT * FROM (\nSELECT 1\n) AS nl2p_preview LIMIT 21');
    expect(previewQuery('SELECT 1 -- note', 2)).toBe('SELECT * FROM (\nSELECT 1 -- note\n) AS nl2p_preview LIMIT 2');
    expect(() => previewQuery('SELECT 1', 0)).toThrow(/positive integer/);
  });
});
