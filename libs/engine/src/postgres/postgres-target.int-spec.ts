import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, type QueryConfig } from 'pg';
import { tmpPipelineId } from '@nl2p/envelope';
import { ensureDemoDatabase } from '../duckdb/demo-data';
import { DuckDbTarget } from '../duckdb/duckdb-target';
import { TargetQueryError } from '../port';
import { previewQuery, RefusedQueryError } from '../sql/read-only-guard';
import { ensurePostgresDemo } from './demo-data';
import { PostgresTarget, type PostgresTargetOptions } from './postgres-target';

// A real PostgreSQL server, given by POSTGRES_URL (tools/demo-data/start-postgres.sh starts a
// throw-away one). Each run loads the demo into its own schema and drops it afterwards.
const url = process.env.POSTGRES_URL;
const suite = url ? describe : describe.skip;
if (!url) {
  console.log(
    'PostgresTarget integration tests skipped: POSTGRES_URL is not set. Start a throw-away server with ' +
      '`set -a; eval "$(tools/demo-data/start-postgres.sh)"; set +a` and run them again.',
  );
}

suite('PostgresTarget', () => {
  const schema = `nl2p_test_${process.pid}_${Date.now().toString(36)}`;
  const extraSchema = `${schema}_extra`;
  let admin: Pool;
  let target: PostgresTarget;
  const targets: PostgresTarget[] = [];
  const tmp = (attempt = 1): string => tmpPipelineId('0123456789abcdef0123456789abcdef', 1, attempt);

  function open(options: Partial<PostgresTargetOptions> = {}): PostgresTarget {
    const t = new PostgresTarget({ connectionString: url ?? '', schema, previewRows: 5, ...options });
    targets.push(t);
    return t;
  }

  async function counts(): Promise<Record<string, number>> {
    const res = await admin.query<{ t: string; n: number }>(
      `SELECT 'orders' AS t, count(*)::int AS n FROM "${schema}".orders UNION ALL SELECT 'customers', count(*)::int FROM "${schema}".customers
       UNION ALL SELECT 'tables', count(*)::int FROM pg_tables WHERE schemaname = $1`,
      [schema],
    );
    return Object.fromEntries(res.rows.map((r) => [r.t, r.n]));
  }

  beforeAll(async () => {
    admin = new Pool({ connectionString: url, max: 2 });
    await expect(ensurePostgresDemo(admin, { schema })).resolves.toEqual({ created: true });
    target = open();
  });

  afterAll(async () => {
    for (const t of targets) await t.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS "${extraSchema}" CASCADE`);
    await admin.end();
  });

  describe('demo data', () => {
    it('is loaded once', async () => {
      await expect(ensurePostgresDemo(admin, { schema })).resolves.toEqual({ created: false });
      expect(await counts()).toEqual({ orders: 800, customers: 40, tables: 4 });
    });

    it('refuses to mix into a schema that holds some of the tables already', async () => {
      await admin.query(`CREATE SCHEMA "${extraSchema}"; CREATE TABLE "${extraSchema}".orders (id int)`);
      try {
        await expect(ensurePostgresDemo(admin, { schema: extraSchema })).rejects.toThrow(
          /could not load the demo dataset/,
        );
      } finally {
        await admin.query(`DROP SCHEMA "${extraSchema}" CASCADE`);
      }
    });

    it('holds exactly the rows of the DuckDB demo, shown the same way by both targets', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'nl2p-pg-duckdb-'));
      const duck = new DuckDbTarget({ path: join(dir, 'demo.duckdb'), previewRows: 10_000 });
      try {
        await ensureDemoDatabase(join(dir, 'demo.duckdb'));
        const pg = open({ previewRows: 10_000 });
        for (const sql of [
          'SELECT * FROM sensor_readings ORDER BY ts, device_id',
          'SELECT * FROM devices ORDER BY device_id',
          'SELECT * FROM customers ORDER BY customer_id',
          'SELECT * FROM orders ORDER BY order_id',
          `SELECT device_id, count(*) AS n, round(avg(temperature)::numeric, 3) AS avg_t, max(ts) AS last_seen
           FROM sensor_readings GROUP BY device_id ORDER BY device_id`,
        ]) {
          const [fromPg, fromDuck] = await Promise.all([pg.preview(sql), duck.preview(sql)]);
          expect(fromPg).toEqual(fromDuck);
          expect(fromPg.rows.length).toBeGreaterThan(0);
        }
      } finally {
        await duck.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('grounding', () => {
    it('lists the four tables with their columns from the catalog', async () => {
      const streams = await target.listStreams();
      expect(streams.map((s) => s.name)).toEqual(['customers', 'devices', 'orders', 'sensor_readings']);
      expect(streams.find((s) => s.name === 'sensor_readings')?.columns).toEqual([
        { name: 'ts', data_type: 'timestamp without time zone' },
        { name: 'device_id', data_type: 'text' },
        { name: 'temperature', data_type: 'double precision' },
        { name: 'humidity', data_type: 'double precision' },
        { name: 'battery', data_type: 'integer' },
      ]);
      expect(streams.find((s) => s.name === 'orders')?.columns.find((c) => c.name === 'unit_price')?.data_type).toBe(
        'numeric(10,2)',
      );
    });

    it("reads the database's comments on tables and columns", async () => {
      await admin.query(`COMMENT ON TABLE "${schema}".devices IS 'installed sensor boxes'`);
      await admin.query(`COMMENT ON COLUMN "${schema}".devices.model IS 'hardware revision'`);
      try {
        const devices = (await target.listStreams()).find((s) => s.name === 'devices');
        expect(devices?.comment).toBe('installed sensor boxes');
        expect(devices?.columns.find((c) => c.name === 'model')?.comment).toBe('hardware revision');
        expect(devices?.columns.find((c) => c.name === 'site')?.comment).toBeUndefined();
      } finally {
        await admin.query(`COMMENT ON TABLE "${schema}".devices IS NULL`);
        await admin.query(`COMMENT ON COLUMN "${schema}".devices.model IS NULL`);
      }
    });

    it('describes a table (unquoted names fold to lower case) and answers null for an unknown one', async () => {
      expect((await target.describeStream('devices'))?.columns.map((c) => c.name)).toEqual([
        'device_id',
        'site',
        'model',
        'installed_at',
      ]);
      expect((await target.describeStream('DEVICES'))?.name).toBe('devices');
      expect(await target.describeStream('nosuch')).toBeNull();
      expect(await target.describeStream("devices' OR '1'='1")).toBeNull();
    });

    it('maps arrays to list and composite types to struct', async () => {
      await admin.query(
        `CREATE SCHEMA "${extraSchema}"; CREATE TYPE "${extraSchema}".reading AS (value double precision, tags text[]);
         CREATE TABLE "${extraSchema}".nested (r "${extraSchema}".reading, l integer[], rs "${extraSchema}".reading[])`,
      );
      try {
        expect(await open({ schema: extraSchema }).describeStream('nested')).toEqual({
          name: 'nested',
          columns: [
            {
              name: 'r',
              data_type: 'struct',
              fields: [
                { name: 'value', data_type: 'double precision' },
                { name: 'tags', data_type: 'list', element: { name: 'element', data_type: 'text' } },
              ],
            },
            { name: 'l', data_type: 'list', element: { name: 'element', data_type: 'integer' } },
            {
              name: 'rs',
              data_type: 'list',
              element: {
                name: 'element',
                data_type: 'struct',
                fields: [
                  { name: 'value', data_type: 'double precision' },
                  { name: 'tags', data_type: 'list', element: { name: 'element', data_type: 'text' } },
                ],
              },
            },
          ],
        });
      } finally {
        await admin.query(`DROP SCHEMA "${extraSchema}" CASCADE`);
      }
    });

    it('loads a curated, deduplicated function catalog with PostgreSQL dialect notes', async () => {
      const catalog = await target.loadCatalog();
      expect(catalog.dialect).toBe('postgres');
      const names = catalog.functions.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBeGreaterThan(80);
      expect(names.length).toBeLessThan(250);
      const byName = new Map(catalog.functions.map((f) => [f.name, f]));
      expect(byName.get('avg')?.kind).toBe('aggregate');
      expect(byName.get('row_number')?.kind).toBe('window');
      expect(byName.get('round')?.signature).toBe('round(numeric, [integer])');
      expect(byName.get('date_trunc')?.signature).toMatch(/^date_trunc\(text, /);
      expect(byName.get('concat')?.signature).toBe('concat(any...)');
      expect(byName.get('percentile_cont')?.signature).toBe('percentile_cont(fraction) WITHIN GROUP (ORDER BY x)');
      expect(byName.get('coalesce')).toBeDefined();
      expect(byName.get('date_trunc')?.description).not.toBe('');
      expect(catalog.dialectNotes.join('\n')).toContain('round(avg(temperature)::numeric, 2)');
    });
  });

  describe('validate / explain / cleanup', () => {
    it('accepts a good aggregate query and explains it until cleanup', async () => {
      const sql = `SELECT device_id, date_trunc('hour', ts) AS hour, avg(temperature) AS avg_temp
        FROM sensor_readings GROUP BY 1, 2 HAVING avg(temperature) > 30 ORDER BY hour`;
      // Validated means it ran (read-only, row-limited): the first rows come back with the verdict.
      const result = await target.validate(sql, tmp());
      expect(result).toMatchObject({ ok: true, tmpId: tmp(), preview: { columns: ['device_id', 'hour', 'avg_temp'] } });
      expect(result.ok && result.preview?.rows.length).toBeGreaterThan(0);
      const plan = await target.explain(tmp(), sql);
      expect(plan).toMatch(/Scan on sensor_readings/);
      expect(plan).toMatch(/Aggregate/);
      await target.cleanup(tmp());
      await expect(target.cleanup(tmp())).resolves.toBeUndefined();
    });

    it('a query the planner accepts but that fails when it runs is an engine failure, not accepted', async () => {
      // EXPLAIN plans this (text → integer is a legal cast); only running it meets 'dev-01'.
      const result = await target.validate('SELECT CAST(device_id AS INTEGER) AS n FROM sensor_readings', tmp(3));
      expect(result).toMatchObject({ ok: false, kind: 'semantic' });
      expect(!result.ok && result.error).toMatch(
        /the query failed when it ran: .*invalid input syntax for type integer/,
      );
    });

    it('accepts joins and CTEs', async () => {
      const sql = `WITH revenue AS (
          SELECT customer_id, sum(quantity * unit_price) AS total FROM orders WHERE status <> 'cancelled' GROUP BY customer_id)
        SELECT c.country, sum(r.total) AS total FROM revenue r JOIN customers c USING (customer_id) GROUP BY c.country`;
      await expect(target.validate(sql, tmp(2))).resolves.toMatchObject({ ok: true });
    });

    it.each([
      [
        'unknown_column',
        'SELECT device_id, avg(temp) FROM sensor_readings GROUP BY device_id',
        /column "temp" does not exist \(at character 23\) \[SQLSTATE 42703\]/,
      ],
      ['unknown_stream', 'SELECT * FROM sensors', /relation "sensors" does not exist .*\[SQLSTATE 42P01\]/],
      [
        'unknown_function',
        'SELECT tumblingwindow(ts) FROM sensor_readings',
        /function tumblingwindow\(timestamp without time zone\) does not exist[\s\S]*HINT:/,
      ],
      [
        'semantic',
        'SELECT device_id, temperature FROM sensor_readings GROUP BY device_id',
        /must appear in the GROUP BY clause.*\[SQLSTATE 42803\]/,
      ],
      ['semantic', 'SELECT device_id + 1 FROM sensor_readings', /operator does not exist: text \+ integer/],
      [
        'syntax',
        'SELECT ts + INTERVAL 10 SECOND FROM sensor_readings',
        // PostgreSQL's own parser words it (locally, so without the server's SQLSTATE 42601).
        /^refused before reaching PostgreSQL: PostgreSQL cannot parse the SQL: syntax error at or near "10" \(line 1, column 22\)$/,
      ],
      [
        'syntax',
        'SELECT device_id FROM sensor_readings WHERE',
        /^refused before reaching PostgreSQL: PostgreSQL cannot parse the SQL: syntax error at end of input/,
      ],
    ])('reports %s with PostgreSQL’s own message', async (kind, sql, message) => {
      const result = await target.validate(sql, tmp(3));
      expect(result).toMatchObject({ ok: false, tmpId: tmp(3), kind });
      if (!result.ok) expect(result.error).toMatch(message);
    });

    it('refuses ids without the temp prefix', async () => {
      await expect(target.validate('SELECT 1', 'my_pipeline')).rejects.toThrow(
        /temp ids start with __nl2pipeline_tmp__/,
      );
      await expect(target.cleanup('my_pipeline')).rejects.toThrow(/temp ids start with/);
    });

    it('explains SQL it did not validate itself, as another process would', async () => {
      const other = open();
      await expect(other.explain(tmp(9), 'SELECT status, count(*) FROM orders GROUP BY status')).resolves.toMatch(
        /orders/,
      );
      await expect(other.explainSql('SELECT status, count(*) FROM orders GROUP BY status')).resolves.toMatch(
        /Scan on orders/,
      );
      await expect(other.explainSql('DROP TABLE orders')).rejects.toBeInstanceOf(RefusedQueryError);
    });
  });

  describe('read-only protection', () => {
    const HOSTILE = [
      'DROP TABLE orders',
      'SELECT 1; DROP TABLE orders',
      'WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x',
      "INSERT INTO customers VALUES (99, 'Mallory', 'Nowhere', 'consumer')",
      'UPDATE orders SET quantity = 0',
      'DELETE FROM orders',
      'TRUNCATE orders',
      'CREATE TABLE stolen AS SELECT * FROM customers',
      'SELECT * INTO stolen FROM customers',
      "COPY orders TO '/tmp/orders.csv'",
      'ALTER TABLE orders DROP COLUMN status',
      'GRANT ALL ON orders TO PUBLIC',
      'SET statement_timeout = 0',
      'BEGIN',
      "SELECT pg_read_file('/etc/passwd')",
      "SELECT set_config('default_transaction_read_only', 'off', false)",
      'SELECT pg_terminate_backend(pg_backend_pid())',
      'SELECT pg_sleep(10)',
      "SELECT nextval('orders_seq')",
      'SELECT * FROM orders FOR UPDATE',
    ];

    it.each(HOSTILE)('refuses %s before it reaches PostgreSQL', async (sql) => {
      const result = await target.validate(sql, tmp(4));
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error).toMatch(/^refused before reaching PostgreSQL: /);
      await expect(target.preview(sql)).rejects.toBeInstanceOf(RefusedQueryError);
    });

    it('leaves the tables intact', async () => {
      expect(await counts()).toEqual({ orders: 800, customers: 40, tables: 4 });
    });

    describe('texts a parser with backslash escapes would read differently', () => {
      // Such a parser (the guard's before it used PostgreSQL's own) takes \' as an escaped quote;
      // PostgreSQL (standard_conforming_strings, which the target sets) ends the string at the
      // quote. To it each text below is one SELECT of a string literal; the guard now reads them
      // as PostgreSQL does.
      const TWO = String.raw`SELECT '\'; DROP TABLE orders; --' AS x`;
      // Nested in the preview query, to PostgreSQL: three complete statements.
      const THREE_WHEN_NESTED = String.raw`SELECT '\') AS q; DROP TABLE orders; SELECT (1 --\'' AS x`;

      it('are refused by the guard, in PostgreSQL’s reading', async () => {
        for (const [sql, kind, reason] of [
          [TWO, 'semantic', /^refused before reaching PostgreSQL: exactly one statement is allowed; found 2$/],
          [
            THREE_WHEN_NESTED,
            'syntax',
            /^refused before reaching PostgreSQL: PostgreSQL cannot parse the SQL: syntax error/,
          ],
        ] as const) {
          const result = await target.validate(sql, tmp(8));
          expect(result).toMatchObject({ ok: false, kind });
          if (!result.ok) expect(result.error).toMatch(reason);
          await expect(target.preview(sql)).rejects.toBeInstanceOf(RefusedQueryError);
        }
        expect(await counts()).toEqual({ orders: 800, customers: 40, tables: 4 });
      });

      it('would be refused again by the extended protocol the target uses', async () => {
        // The same query shape the adapter sends (extended protocol, read-only transaction).
        const client = await admin.connect();
        try {
          await client.query('BEGIN READ ONLY');
          await client.query(`SET LOCAL search_path TO "${schema}"`);
          const extended = { text: previewQuery(THREE_WHEN_NESTED, 6), queryMode: 'extended' } as QueryConfig;
          await expect(client.query(extended)).rejects.toThrow(
            /cannot insert multiple commands into a prepared statement/,
          );
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
        expect(await counts()).toEqual({ orders: 800, customers: 40, tables: 4 });
      });
    });

    it('stops a writing function the parser cannot know about with the read-only transaction', async () => {
      // A user function that deletes: to the parser it is just a function call.
      await admin.query(
        `CREATE FUNCTION "${schema}".tidy_up() RETURNS bigint LANGUAGE sql AS $$ DELETE FROM "${schema}".orders RETURNING 1 $$`,
      );
      try {
        await expect(target.preview('SELECT tidy_up() AS n')).rejects.toThrow(
          /cannot execute DELETE in a read-only transaction.*\[SQLSTATE 25006\]/,
        );
        expect(await counts()).toEqual({ orders: 800, customers: 40, tables: 4 });
      } finally {
        await admin.query(`DROP FUNCTION "${schema}".tidy_up()`);
      }
    });

    it('rolls back what a read-only transaction still allows', async () => {
      // PostgreSQL lets lo_creat() run in a READ ONLY transaction; the rollback discards the object.
      const before = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_largeobject_metadata');
      await expect(target.preview('SELECT lo_creat(-1) AS oid')).resolves.toMatchObject({ columns: ['oid'] });
      const after = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_largeobject_metadata');
      expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
    });
  });

  describe('preview', () => {
    it('returns columns and at most previewRows rows, with truncated set when there are more', async () => {
      const more = await target.preview(
        'SELECT ts, device_id, temperature, battery FROM sensor_readings ORDER BY ts, device_id LIMIT 50',
      );
      expect(more.columns).toEqual(['ts', 'device_id', 'temperature', 'battery']);
      expect(more.rows).toHaveLength(5);
      expect(more.truncated).toBe(true);
      expect(more.rows[0]?.[0]).toMatch(/^2024-03-01T00:00:\d\d\.000Z$/);

      const exact = await target.preview(
        'SELECT device_id, count(*) AS n FROM sensor_readings GROUP BY device_id ORDER BY device_id',
      );
      expect(exact).toEqual({
        columns: ['device_id', 'n'],
        rows: [
          ['dev-01', 960],
          ['dev-02', 960],
          ['dev-03', 960],
          ['dev-04', 960],
          ['dev-05', 960],
        ],
        truncated: false,
      });
    });

    it('returns JSON-safe values for every kind of column', async () => {
      const preview = await target.preview(
        `SELECT unit_price, quantity * unit_price AS total, ordered_at, ordered_at::date AS day, 9007199254740993::bigint AS big,
                42::bigint AS small, INTERVAL '90 minutes' AS span, ARRAY[1, 2] AS list, NULL AS nothing,
                '2024-03-01 12:00:00+02'::timestamptz AS zoned
         FROM orders ORDER BY order_id LIMIT 1`,
      );
      const [row] = preview.rows;
      expect(JSON.parse(JSON.stringify(preview.rows))).toEqual(preview.rows);
      expect(row?.[0]).toEqual(expect.any(Number));
      expect(row?.[1]).toEqual(expect.any(Number));
      expect(row?.[2]).toMatch(/^2024-01-\d\dT\d\d:\d\d:\d\d\.000Z$/);
      expect(row?.[3]).toMatch(/^2024-01-\d\d$/);
      expect(row?.slice(4)).toEqual(['9007199254740993', 42, '01:30:00', [1, 2], null, '2024-03-01T10:00:00.000Z']);
    });

    it('accepts a trailing semicolon or comment', async () => {
      await expect(target.preview('SELECT 1 AS one;  ')).resolves.toMatchObject({ rows: [[1]] });
      await expect(target.preview('SELECT 1 AS one -- the answer')).resolves.toMatchObject({ rows: [[1]] });
    });

    it('wraps a failing query in a TargetQueryError with PostgreSQL’s message', async () => {
      await expect(target.preview('SELECT nosuch FROM orders')).rejects.toThrow(
        /PostgreSQL failed while running the preview: column "nosuch" does not exist/,
      );
    });
  });

  describe('time limit', () => {
    it.each([
      ['a huge cross join', 'SELECT count(*) FROM generate_series(1, 100000000) a, generate_series(1, 1000) b'],
      [
        'an endless recursive CTE',
        'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
      ],
    ])('stops %s and keeps the target usable', async (_name, sql) => {
      const slow = open({ statementTimeoutMs: 200, maxConnections: 1 });
      const started = Date.now();
      const error: unknown = await slow.preview(sql).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(TargetQueryError);
      expect((error as Error).message).toBe('query exceeded the 200 ms time limit');
      expect(Date.now() - started).toBeLessThan(2_000);
      // The single pooled connection is the one that was cancelled: it must still work.
      await expect(slow.preview('SELECT 42 AS answer')).resolves.toEqual({
        columns: ['answer'],
        rows: [[42]],
        truncated: false,
      });
      await expect(slow.validate('SELECT count(*) FROM orders', tmp(7))).resolves.toMatchObject({ ok: true });
    });
  });
});
