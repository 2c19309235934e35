import { SIDE_EFFECT_FUNCTIONS } from '@nl2p/sql-policy';
import { checkDuckDbSelect } from '../duckdb/duckdb-parser';
import { checkPostgresSelect } from '../postgres/postgres-parser';
import { TargetQueryError } from '../port';
import { leadingKeyword, lineAndColumn } from './query-summary';
import {
  assertReadOnlySelect,
  previewQuery,
  RefusedQueryError,
  stripTrailingSemicolons,
  type GuardVerdict,
  type ReadOnlyGuard,
} from './read-only-guard';

// Real parsers only: DuckDB's own (an in-memory instance, text parsed and never run) and
// PostgreSQL's own (libpg-query, no server needed).
const GUARDS: [string, ReadOnlyGuard][] = [
  ['DuckDB', checkDuckDbSelect],
  ['PostgreSQL', checkPostgresSelect],
];

type Expected = [cause: 'parse' | 'not_select' | 'forbidden', reason: RegExp];

async function refusal(guard: ReadOnlyGuard, sql: string): Promise<GuardVerdict> {
  const verdict = await guard(sql);
  expect(verdict.ok).toBe(false);
  return verdict;
}

describe.each(GUARDS)('the %s guard', (_engine, guard) => {
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
    // Refused by the previous guard (node-sql-parser's PostgreSQL grammar), valid in both engines.
    'SELECT a FROM t ORDER BY a FETCH FIRST 5 ROWS ONLY',
    'SELECT a, count(*) FROM t GROUP BY GROUPING SETS ((a), ())',
    'SELECT * FROM "sensor_readings"',
  ])('accepts %s', async (sql) => {
    await expect(guard(sql)).resolves.toEqual({ ok: true });
  });

  it.each<[string, ...Expected]>([
    ['', 'parse', /empty/],
    ['  -- only a comment\n', 'parse', /empty/],
    ['DROP TABLE orders', 'not_select', /only SELECT is allowed; found DROP/],
    ['SELECT 1; DROP TABLE orders', 'not_select', /exactly one statement is allowed; found 2/],
    ['SELECT 1; SELECT 2', 'not_select', /found 2/],
    ['SELECT 1 /* a comment */; DELETE FROM orders -- hidden', 'not_select', /found 2/],
    ['SELECT 1 -- a comment ends at the line\n; DROP TABLE orders', 'not_select', /found 2/],
    ['INSERT INTO orders VALUES (1)', 'not_select', /found INSERT/],
    ['UPDATE orders SET quantity = 0', 'not_select', /found UPDATE/],
    ['CREATE TABLE x AS SELECT 1', 'not_select', /found CREATE/],
    ["COPY orders TO '/tmp/x.csv'", 'not_select', /found COPY/],
    ['SET x = 1', 'not_select', /found SET/],
    ['BEGIN', 'not_select', /found BEGIN/],
    ['CALL foo()', 'not_select', /found CALL/],
    ['EXPLAIN SELECT 1', 'not_select', /found EXPLAIN/],
    ["SELECT * FROM read_csv('/etc/passwd')", 'forbidden', /read_csv is not allowed/],
    ["SELECT pg_catalog.pg_read_file('/etc/passwd')", 'forbidden', /pg_read_file is not allowed/],
    ['SELECT "NEXTVAL"(\'s\')', 'forbidden', /nextval is not allowed/],
    ["SELECT * FROM orders WHERE order_id IN (SELECT setval('s', 1))", 'forbidden', /setval/],
    ["SELECT * FROM query('DROP TABLE orders')", 'forbidden', /the function query is not allowed/],
    [
      'SELECT device_id FROM sensor_readings WHERE',
      'parse',
      /cannot parse the SQL: syntax error at end of input \(line 1, column 44\)/,
    ],
    ['SELECT a\nFROM t WHERE (1', 'parse', /syntax error at end of input \(line 2, column 16\)/],
    ['SELECT 1 /* never closed', 'parse', /unterminated \/\* comment/],
    [`SELECT '${'x'.repeat(100_001)}'`, 'forbidden', /limit is 100000/],
  ])('refuses %s', async (sql, cause, reason) => {
    const verdict = await refusal(guard, sql);
    expect(verdict).toMatchObject({ ok: false, cause });
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('refuses every side-effecting function of @nl2p/sql-policy, also deep inside the query', async () => {
    for (const fn of SIDE_EFFECT_FUNCTIONS) {
      const sql = `WITH x AS (SELECT * FROM t WHERE a IN (SELECT ${fn}('p'))) SELECT * FROM x`;
      const verdict = await guard(sql);
      expect({ fn, verdict }).toEqual({
        fn,
        verdict: {
          ok: false,
          cause: 'forbidden',
          reason: `the function ${fn} is not allowed: it reaches beyond the query's own rows`,
        },
      });
    }
  });

  it('reads a backslash before a quote as the engine does: the string ends there', async () => {
    // The previous parser took \' as an escaped quote and needed a rule of its own for it; the
    // engines' parsers see a second statement (or broken SQL) and refuse that.
    await expect(guard(String.raw`SELECT '\'; DROP TABLE orders; --' AS x`)).resolves.toMatchObject({
      ok: false,
      cause: 'not_select',
      reason: 'exactly one statement is allowed; found 2',
    });
    await expect(guard(String.raw`SELECT '\') AS q; DROP TABLE orders; SELECT (1 --\'' AS x`)).resolves.toMatchObject({
      ok: false,
      cause: 'parse',
    });
  });
});

describe('the DuckDB guard (DuckDB’s own parser)', () => {
  it.each([
    'FROM sensor_readings SELECT device_id, max(temperature) GROUP BY device_id',
    'FROM sensor_readings',
    'SELECT device_id, count(*) FROM sensor_readings GROUP BY ALL',
    'SELECT * EXCLUDE (ts) FROM sensor_readings',
    'SELECT * REPLACE (round(temperature) AS temperature) FROM sensor_readings',
    'SELECT device_id FROM sensor_readings QUALIFY row_number() OVER (PARTITION BY device_id ORDER BY ts DESC) = 1',
    'SELECT [1, 2, 3] AS l',
    'SELECT list_transform([1, 2], x -> x + 1)',
    "SELECT {'k': 1} AS s",
    "SELECT COLUMNS('temp.*') FROM sensor_readings",
    'SELECT * FROM orders o ASOF JOIN prices p ON o.sku = p.sku AND o.ts >= p.ts',
    'SELECT * FROM sensor_readings USING SAMPLE 10%',
    'SELECT #1 FROM sensor_readings',
    'SELECT * FROM range(10)',
  ])('accepts DuckDB syntax the previous guard refused: %s', async (sql) => {
    await expect(checkDuckDbSelect(sql)).resolves.toEqual({ ok: true });
  });

  it.each<[string, ...Expected]>([
    // DuckDB's parser refuses these itself; its words are the reason.
    [
      'WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x',
      'parse',
      /DuckDB cannot parse the SQL: A CTE needs a SELECT/,
    ],
    ['SELECT * INTO stolen FROM customers', 'parse', /DuckDB cannot parse the SQL: SELECT INTO not supported/],
    ['SELECT * FROM t FOR UPDATE', 'parse', /SELECT locking clause is not supported/],
    ['SELECT a FROM', 'parse', /^DuckDB cannot parse the SQL: syntax error at end of input \(line 1, column 14\)$/],
    ["ATTACH 'x.db' AS x", 'not_select', /found ATTACH/],
    ["PRAGMA table_info('orders')", 'not_select', /found PRAGMA/],
    ['SHOW TABLES', 'not_select', /found SHOW/],
    ['DESCRIBE orders', 'not_select', /found DESCRIBE/],
    ['SUMMARIZE orders', 'not_select', /found SUMMARIZE/],
    ['SELECT * FROM (SUMMARIZE orders)', 'not_select', /found SUMMARIZE inside the query/],
    ['LOAD httpfs', 'not_select', /found LOAD/],
    ['CHECKPOINT', 'not_select', /found CHECKPOINT/],
    ["FROM 'data.csv'", 'forbidden', /reads the file "data.csv"/],
    [
      "SELECT * FROM orders JOIN 's3://bucket/x.parquet' USING (order_id)",
      'forbidden',
      /reads the file "s3:\/\/bucket\/x.parquet"/,
    ],
    ['SELECT * FROM "/etc/passwd"', 'forbidden', /reads the file "\/etc\/passwd"/],
    ["SELECT * FROM glob('*')", 'forbidden', /glob is not allowed/],
    ["SELECT getenv('HOME')", 'forbidden', /getenv is not allowed/],
    ["SELECT * FROM (SELECT 1) WHERE EXISTS (FROM read_parquet('x'))", 'forbidden', /read_parquet is not allowed/],
  ])('refuses %s', async (sql, cause, reason) => {
    const verdict = await refusal(checkDuckDbSelect, sql);
    expect(verdict).toMatchObject({ ok: false, cause });
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });
});

describe('the DuckDB guard under concurrent use', () => {
  it('gives each of many simultaneous texts its own verdict (parses take turns on one connection)', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `SELECT ${i}` : `DROP TABLE t${i}`));
    const verdicts = await Promise.all(texts.map((sql) => checkDuckDbSelect(sql)));
    expect(verdicts).toEqual(
      texts.map((_sql, i) =>
        i % 2 === 0 ? { ok: true } : { ok: false, cause: 'not_select', reason: 'only SELECT is allowed; found DROP' },
      ),
    );
  });
});

describe('the PostgreSQL guard (PostgreSQL’s own parser)', () => {
  it.each([
    "SELECT ts AT TIME ZONE 'UTC' FROM sensor_readings",
    'SELECT (address).city FROM customers',
    "SELECT overlay(name placing 'x' from 1) FROM customers",
    'SELECT a FROM t ORDER BY a OFFSET 5 ROWS FETCH NEXT 5 ROWS WITH TIES',
    'SELECT DISTINCT ON (device_id) device_id, ts FROM sensor_readings ORDER BY device_id, ts DESC',
    'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY temperature) FROM sensor_readings',
    'SELECT x FROM generate_series(1, 3) AS g(x)',
    'TABLE orders',
    'VALUES (1), (2)',
  ])('accepts PostgreSQL syntax: %s', async (sql) => {
    await expect(checkPostgresSelect(sql)).resolves.toEqual({ ok: true });
  });

  it.each<[string, ...Expected]>([
    ['WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x', 'not_select', /found DELETE inside the query/],
    ['WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x', 'not_select', /found INSERT inside the query/],
    [
      'SELECT * FROM (SELECT 1) a, LATERAL (WITH u AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM u) b',
      'not_select',
      /found UPDATE inside the query/,
    ],
    ['SELECT * INTO stolen FROM customers', 'forbidden', /SELECT … INTO creates a table/],
    ['SELECT 1 INTO TEMP stolen', 'forbidden', /SELECT … INTO creates a table/],
    ['SELECT * FROM t FOR UPDATE', 'forbidden', /locks rows/],
    ['SELECT * FROM t FOR SHARE SKIP LOCKED', 'forbidden', /locks rows/],
    ['EXPLAIN ANALYZE DELETE FROM orders', 'not_select', /found EXPLAIN/],
    ['SELECT [1, 2]', 'parse', /^PostgreSQL cannot parse the SQL: syntax error at or near "\[" \(line 1, column 8\)$/],
    ['SELECT a FROM t GROUP BY ALL', 'parse', /syntax error at end of input/],
    ['FROM t SELECT a', 'parse', /syntax error at or near "FROM" \(line 1, column 1\)/],
    ["ATTACH 'x.db' AS x", 'parse', /syntax error at or near "ATTACH"/],
    ["PRAGMA table_info('orders')", 'parse', /syntax error at or near "PRAGMA"/],
    ['SHOW TABLES', 'not_select', /found SHOW/],
    ["SELECT pg_ls_dir('.')", 'forbidden', /pg_ls_dir is not allowed/],
    ['SELECT pg_sleep(10)', 'forbidden', /pg_sleep is not allowed/],
  ])('refuses %s', async (sql, cause, reason) => {
    const verdict = await refusal(checkPostgresSelect, sql);
    expect(verdict).toMatchObject({ ok: false, cause });
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });
});

describe('assertReadOnlySelect', () => {
  it('throws a RefusedQueryError, which is a TargetQueryError', async () => {
    await expect(assertReadOnlySelect('SELECT 1', checkDuckDbSelect)).resolves.toBeUndefined();
    const error: unknown = await assertReadOnlySelect('DELETE FROM orders', checkDuckDbSelect).catch((e: unknown) => e);
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

describe('naming a refused statement', () => {
  it('names it by its first keyword past whitespace, comments and parentheses', () => {
    expect(leadingKeyword('  -- note\n /* a /* nested */ b */ ((drop table x))')).toBe('DROP');
    expect(leadingKeyword('SELECT 1; copy t to x', 10)).toBe('COPY');
    expect(leadingKeyword('  ')).toBe('an unknown statement');
  });

  it('places an offset by line and column', () => {
    expect(lineAndColumn('SELECT a\nFROM t WHERE', 20)).toBe('line 2, column 12');
    expect(lineAndColumn('SELECT', 0)).toBe('line 1, column 1');
  });
});
