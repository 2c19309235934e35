import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { tmpPipelineId } from '@nl2p/envelope';
import { TargetQueryError } from '../port';
import { ensureDemoDatabase, loadDemoData } from './demo-data';
import { runDemoDataCli } from './demo-data-cli';
import { demoDataset } from '../sql/demo-dataset';
import { DuckDbTarget } from './duckdb-target';
import { previewQuery, RefusedQueryError } from '../sql/read-only-guard';
import { runSingle } from './single-statement';

// The real DuckDB (embedded) on a temp copy of the demo database.
describe('DuckDbTarget', () => {
  let dir: string;
  let path: string;
  let target: DuckDbTarget;
  const targets: DuckDbTarget[] = [];
  const tmp = (attempt = 1): string => tmpPipelineId('0123456789abcdef0123456789abcdef', 1, attempt);

  function open(options: Partial<ConstructorParameters<typeof DuckDbTarget>[0]> = {}): DuckDbTarget {
    const t = new DuckDbTarget({ path, previewRows: 5, ...options });
    targets.push(t);
    return t;
  }

  /** Row count and a content hash per table, read through a separate read-only instance. */
  async function fingerprint(file: string): Promise<Record<string, [string, string]>> {
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    try {
      const out: Record<string, [string, string]> = {};
      for (const table of ['customers', 'devices', 'orders', 'sensor_readings']) {
        const reader = await connection.runAndReadAll(
          `SELECT count(*)::VARCHAR, md5(string_agg(CAST(t AS VARCHAR), chr(10) ORDER BY CAST(t AS VARCHAR))) FROM ${table} t`,
        );
        // Both columns are VARCHAR by construction.
        const [count, hash] = (reader.getRowsJS()[0] ?? []) as [string, string];
        out[table] = [count, hash];
      }
      return out;
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nl2p-duckdb-'));
    path = join(dir, 'demo.duckdb');
    await expect(ensureDemoDatabase(path)).resolves.toEqual({ created: true });
    target = open();
  });

  afterAll(async () => {
    for (const t of targets) await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('demo data', () => {
    it('is created once and is the same rows every time', async () => {
      const before = statSync(path).mtimeMs;
      await expect(ensureDemoDatabase(path)).resolves.toEqual({ created: false });
      expect(statSync(path).mtimeMs).toBe(before);

      // A second, independent build through the CLI entry holds exactly the same rows.
      const other = join(dir, 'nested', 'again.duckdb');
      const lines: string[] = [];
      await expect(runDemoDataCli([other], (l) => lines.push(l))).resolves.toBe(0);
      expect(lines).toEqual([`created the demo database at ${other}`]);
      const [a, b] = await Promise.all([fingerprint(path), fingerprint(other)]);
      expect(b).toEqual(a);
      expect(Object.fromEntries(Object.entries(a).map(([t, [count]]) => [t, Number(count)]))).toEqual({
        customers: 40,
        devices: 5,
        orders: 800,
        sensor_readings: 4800,
      });
      expect(Object.fromEntries(demoDataset().map((t) => [t.name, t.rows.length]))).toEqual({
        customers: 40,
        devices: 5,
        orders: 800,
        sensor_readings: 4800,
      });
    });

    it('has hot spells above 30 degrees on some devices only', async () => {
      const preview = await open({ previewRows: 10 }).preview(
        `SELECT device_id, count(*) AS hot FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id`,
      );
      expect(preview.rows.map((r) => r[0])).toEqual(['dev-01', 'dev-03', 'dev-05']);
      for (const row of preview.rows) expect(row[1]).toBeGreaterThan(0);
    });

    it('prints usage for a bad command line', async () => {
      const lines: string[] = [];
      await expect(runDemoDataCli([], (l) => lines.push(l))).resolves.toBe(2);
      expect(lines[0]).toMatch(/^usage: demo-data/);
    });
  });

  describe('grounding', () => {
    it('lists the four tables with their columns from the catalog', async () => {
      const streams = await target.listStreams();
      expect(streams.map((s) => s.name)).toEqual(['customers', 'devices', 'orders', 'sensor_readings']);
      expect(streams.find((s) => s.name === 'sensor_readings')?.columns).toEqual([
        { name: 'ts', data_type: 'timestamp' },
        { name: 'device_id', data_type: 'varchar' },
        { name: 'temperature', data_type: 'double' },
        { name: 'humidity', data_type: 'double' },
        { name: 'battery', data_type: 'integer' },
      ]);
      expect(streams.find((s) => s.name === 'orders')?.columns.find((c) => c.name === 'unit_price')).toEqual({
        name: 'unit_price',
        data_type: 'decimal(10,2)',
      });
    });

    it("reads the database's comments on tables, views and columns", async () => {
      const file = join(dir, 'commented.duckdb');
      const instance = await DuckDBInstance.create(file);
      const connection = await instance.connect();
      await connection.run(`CREATE TABLE cars (id INTEGER, atm BOOLEAN, px DOUBLE);
        CREATE VIEW fast_cars AS SELECT * FROM cars;
        COMMENT ON TABLE cars IS 'cars for sale';
        COMMENT ON VIEW fast_cars IS 'sports models';
        COMMENT ON COLUMN cars.atm IS 'automatic gearbox'`);
      connection.closeSync();
      instance.closeSync();
      const streams = await open({ path: file }).listStreams();
      const cars = streams.find((s) => s.name === 'cars');
      expect(cars?.comment).toBe('cars for sale');
      expect(streams.find((s) => s.name === 'fast_cars')?.comment).toBe('sports models');
      expect(cars?.columns.find((c) => c.name === 'atm')?.comment).toBe('automatic gearbox');
      expect(cars?.columns.find((c) => c.name === 'px')?.comment).toBeUndefined();
    });

    it('describes a table (names are case-insensitive) and answers null for an unknown one', async () => {
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

    it('maps STRUCT to fields and LIST to element', async () => {
      const memory = open({
        path: ':memory:',
        setup: async (c) => {
          await c.run(`CREATE TABLE nested (s STRUCT(x INTEGER, "y z" VARCHAR[]), l DOUBLE[], a INTEGER[3])`);
          await c.run(`INSERT INTO nested VALUES ({'x': 1, 'y z': ['a', NULL]}, [1.5, 'NaN'::DOUBLE], [1, 2, 3])`);
        },
      });
      await expect(memory.preview('SELECT s, l, a FROM nested')).resolves.toEqual({
        columns: ['s', 'l', 'a'],
        rows: [[{ x: 1, 'y z': ['a', null] }, [1.5, 'NaN'], [1, 2, 3]]],
        truncated: false,
      });
      expect(await memory.describeStream('nested')).toEqual({
        name: 'nested',
        columns: [
          {
            name: 's',
            data_type: 'struct',
            fields: [
              { name: 'x', data_type: 'integer' },
              { name: 'y z', data_type: 'list', element: { name: 'element', data_type: 'varchar' } },
            ],
          },
          { name: 'l', data_type: 'list', element: { name: 'element', data_type: 'double' } },
          { name: 'a', data_type: 'list', element: { name: 'element', data_type: 'integer' } },
        ],
      });
    });

    it('loads a curated, deduplicated function catalog with DuckDB dialect notes', async () => {
      const catalog = await target.loadCatalog();
      expect(catalog.dialect).toBe('duckdb');
      const names = catalog.functions.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBeGreaterThan(80);
      expect(names.length).toBeLessThan(250);
      const byName = new Map(catalog.functions.map((f) => [f.name, f]));
      expect(byName.get('avg')).toMatchObject({ kind: 'aggregate', aliases: expect.arrayContaining(['mean']) });
      expect(byName.get('round')?.signature).toBe('round(x, [precision])');
      expect(byName.get('time_bucket')?.signature).toMatch(/^time_bucket\(bucket_width, ts/);
      expect(byName.get('row_number')?.kind).toBe('window');
      expect(byName.get('date_trunc')?.kind).toBe('scalar');
      expect(byName.get('coalesce')).toBeDefined();
      // Aliases fold into their function instead of appearing twice.
      expect(byName.has('mean')).toBe(false);
      expect(catalog.syntax.find((r) => r.id === 'select.group_by_all')?.status).toBe('unsupported');
      expect(catalog.dialectNotes.join('\n')).toContain("time_bucket(INTERVAL '10 seconds', ts)");
    });
  });

  describe('validate / explain / cleanup', () => {
    it('accepts a good aggregate query and explains it until cleanup', async () => {
      const sql = `SELECT device_id, time_bucket(INTERVAL '10 minutes', ts) AS bucket, avg(temperature) AS avg_temp
        FROM sensor_readings GROUP BY 1, 2 HAVING avg(temperature) > 30 ORDER BY bucket`;
      // Validated means it ran (read-only, row-limited): the first rows come back with the verdict.
      const result = await target.validate(sql, tmp());
      expect(result).toMatchObject({
        ok: true,
        tmpId: tmp(),
        preview: { columns: ['device_id', 'bucket', 'avg_temp'] },
      });
      expect(result.ok && result.preview?.rows.length).toBeGreaterThan(0);
      const plan = await target.explain(tmp(), sql);
      expect(plan).toMatch(/sensor_readings/);
      expect(plan).toMatch(/GROUP_BY|AGGREGATE/);
      await target.cleanup(tmp());
      // A missing record is fine to clean up again.
      await expect(target.cleanup(tmp())).resolves.toBeUndefined();
    });

    it('a query the planner accepts but that fails when it runs is an engine failure, not accepted', async () => {
      // EXPLAIN binds this (VARCHAR → INTEGER is a legal cast); only running it meets 'dev-01'.
      const sql = 'SELECT CAST(device_id AS INTEGER) AS n FROM sensor_readings';
      const result = await target.validate(sql, tmp(3));
      expect(result).toMatchObject({ ok: false, kind: 'semantic' });
      expect(!result.ok && result.error).toMatch(/the query failed when it ran: .*Conversion Error/);
    });

    it('accepts joins and CTEs', async () => {
      const sql = `WITH revenue AS (
          SELECT customer_id, sum(quantity * unit_price) AS total FROM orders WHERE status <> 'cancelled' GROUP BY customer_id)
        SELECT c.country, sum(r.total) AS total FROM revenue r JOIN customers c USING (customer_id) GROUP BY c.country`;
      await expect(target.validate(sql, tmp(2))).resolves.toMatchObject({ ok: true });
    });

    it.each([
      'FROM sensor_readings SELECT device_id, max(temperature) AS hottest GROUP BY device_id ORDER BY device_id',
      'SELECT device_id, max(temperature) AS hottest FROM sensor_readings GROUP BY ALL ORDER BY ALL',
      'SELECT * EXCLUDE (ts) FROM sensor_readings QUALIFY row_number() OVER (PARTITION BY device_id ORDER BY ts) = 1',
      'SELECT list_transform([1, 2, 3], x -> x * 2) AS doubled',
    ])('validates and previews DuckDB syntax its own parser reads: %s', async (sql) => {
      await expect(target.validate(sql, tmp(2))).resolves.toMatchObject({ ok: true });
      const preview = await target.preview(sql);
      expect(preview.rows.length).toBeGreaterThan(0);
    });

    it.each([
      [
        'unknown_column',
        'SELECT device_id, avg(temp) FROM sensor_readings GROUP BY device_id',
        /Referenced column "temp" not found/,
      ],
      ['unknown_column', 'SELECT s.nosuch FROM sensor_readings s', /does not have a column named "nosuch"/],
      ['unknown_stream', 'SELECT * FROM sensors', /Table with name sensors does not exist/],
      [
        'unknown_function',
        'SELECT tumblingwindow(ts) FROM sensor_readings',
        /Function with name tumblingwindow does not exist/,
      ],
      [
        'semantic',
        'SELECT device_id, temperature FROM sensor_readings GROUP BY device_id',
        /must appear in the GROUP BY clause/,
      ],
      [
        'syntax',
        'SELECT device_id FROM sensor_readings WHERE',
        /^refused before reaching DuckDB: DuckDB cannot parse the SQL: syntax error at end of input/,
      ],
    ])('reports %s with DuckDB’s own message', async (kind, sql, message) => {
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
      await expect(other.explainSql('SELECT status, count(*) FROM orders GROUP BY status')).resolves.toMatch(/orders/);
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
      'CREATE TABLE stolen AS SELECT * FROM customers',
      'SELECT * INTO stolen FROM customers',
      "COPY orders TO '/tmp/orders.csv'",
      "ATTACH '/tmp/other.duckdb' AS other",
      "PRAGMA table_info('orders')",
      'SET enable_external_access = true',
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM query('DROP TABLE orders')",
      'CHECKPOINT',
      'LOAD httpfs',
    ];

    it.each(HOSTILE)('refuses %s before it reaches DuckDB', async (sql) => {
      const result = await target.validate(sql, tmp(4));
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error).toMatch(/^refused before reaching DuckDB: /);
      await expect(target.preview(sql)).rejects.toBeInstanceOf(RefusedQueryError);
    });

    it('leaves a writable in-memory database intact after every refused statement', async () => {
      // No read-only mode to fall back on here: only the checks stand between the text and the data.
      const memory = open({ path: ':memory:', setup: loadDemoData });
      for (const sql of HOSTILE) {
        await expect(memory.validate(sql, tmp(5))).resolves.toMatchObject({ ok: false });
        await expect(memory.preview(sql)).rejects.toBeInstanceOf(TargetQueryError);
      }
      const counts = await memory.preview(
        `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM customers) AS customers,
                (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main') AS tables`,
      );
      expect(counts.rows).toEqual([[800, 40, 4]]);
    });

    describe('texts a parser with backslash escapes would read differently', () => {
      // Such a parser (the guard's before it used DuckDB's own) takes \' as an escaped quote; DuckDB
      // (standard SQL strings) ends the string at the quote. To it each text below is one SELECT of
      // a string literal; the guard now reads them as DuckDB does.
      const TWO = String.raw`SELECT '\'; DROP TABLE orders; --' AS x`;
      // Nested in the preview query this one becomes, to DuckDB, three complete statements:
      // SELECT * FROM (SELECT '\') AS q; DROP TABLE orders; SELECT (1 --… ) AS nl2p_preview LIMIT n
      const THREE_WHEN_NESTED = String.raw`SELECT '\') AS q; DROP TABLE orders; SELECT (1 --\'' AS x`;

      it('are refused by the guard, in DuckDB’s reading', async () => {
        for (const [sql, kind, reason] of [
          [TWO, 'semantic', /^refused before reaching DuckDB: exactly one statement is allowed; found 2$/],
          [THREE_WHEN_NESTED, 'syntax', /^refused before reaching DuckDB: DuckDB cannot parse the SQL: syntax error/],
        ] as const) {
          const result = await target.validate(sql, tmp(8));
          expect(result).toMatchObject({ ok: false, kind });
          if (!result.ok) expect(result.error).toMatch(reason);
          await expect(target.preview(sql)).rejects.toBeInstanceOf(RefusedQueryError);
        }
      });

      it('are refused again by DuckDB’s own statement count, which a plain run() would not do', async () => {
        const instance = await DuckDBInstance.create(':memory:');
        const connection = await instance.connect();
        try {
          await loadDemoData(connection);
          for (const [sql, found] of [
            [TWO, 2],
            [previewQuery(THREE_WHEN_NESTED, 6), 3],
          ] as const) {
            const error: unknown = await runSingle(connection, sql, StatementType.SELECT).catch((err: unknown) => err);
            expect(error).toBeInstanceOf(RefusedQueryError);
            expect(error).toMatchObject({
              stage: 'database',
              message: `refused by the database before running: exactly one statement is allowed; DuckDB found ${found}`,
            });
          }
          const reader = await connection.runAndReadAll('SELECT count(*)::INTEGER FROM orders');
          expect(reader.getRowsJS()).toEqual([[800]]);
        } finally {
          connection.closeSync();
          instance.closeSync();
        }
      });
    });

    it('stops a file read with the guard, and again with DuckDB’s own external-access lock', async () => {
      // `FROM 'file.csv'` is a table reference in DuckDB's parse tree; DuckDB's replacement scan
      // would read the file. The guard refuses a table name that is a path; past the guard, the
      // adapter's instance (external access disabled) still refuses to open the file.
      const csv = join(dir, 'secret.csv');
      writeFileSync(csv, 'secret\nhunter2\n');
      const result = await target.validate(`SELECT * FROM '${csv}'`, tmp(6));
      expect(result).toMatchObject({ ok: false, kind: 'semantic' });
      if (!result.ok) expect(result.error).toMatch(/^refused before reaching DuckDB: the query reads the file/);
      await expect(target.preview(`SELECT * FROM '${csv}'`)).rejects.toBeInstanceOf(RefusedQueryError);
      const unguarded = target as unknown as {
        withConnection<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T>;
      };
      await expect(
        unguarded.withConnection((connection) =>
          runSingle(connection, previewQuery(`SELECT * FROM '${csv}'`, 2), StatementType.SELECT),
        ),
      ).rejects.toThrow(/disabled by configuration/);
    });

    it('opens files read-only', async () => {
      const before = await fingerprint(path);
      expect(() => open({ path: ':memory:', readOnly: true })).toThrow(/cannot be opened read-only/);
      expect(() => open({ setup: loadDemoData })).toThrow(/writable/);
      expect(await fingerprint(path)).toEqual(before);
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
      const [first] = more.rows;
      expect(first?.[0]).toMatch(/^2024-03-01T00:00:\d\d\.000Z$/);
      expect(first?.[1]).toBe('dev-01');
      expect(typeof first?.[2]).toBe('number');
      expect(typeof first?.[3]).toBe('number');

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
        `SELECT unit_price, quantity * unit_price AS total, ordered_at, ordered_at::DATE AS day, 9007199254740993::BIGINT AS big,
                42::BIGINT AS small, INTERVAL '90 minutes' AS span, ARRAY[1, 2] AS list, NULL AS nothing
         FROM orders ORDER BY order_id LIMIT 1`,
      );
      const [row] = preview.rows;
      expect(JSON.parse(JSON.stringify(preview.rows))).toEqual(preview.rows);
      expect(row?.[0]).toEqual(expect.any(Number));
      expect(row?.[1]).toEqual(expect.any(Number));
      expect(row?.[2]).toMatch(/^2024-01-\d\dT\d\d:\d\d:\d\d\.000Z$/);
      expect(row?.[3]).toMatch(/^2024-01-\d\d$/);
      expect(row?.slice(4)).toEqual([
        '9007199254740993',
        42,
        { months: 0, days: 0, micros: '5400000000' },
        [1, 2],
        null,
      ]);
    });

    it('accepts a trailing semicolon or comment', async () => {
      await expect(target.preview('SELECT 1 AS one;  ')).resolves.toMatchObject({ rows: [[1]] });
      await expect(target.preview('SELECT 1 AS one -- the answer')).resolves.toMatchObject({ rows: [[1]] });
    });

    it('wraps a failing query in a TargetQueryError with DuckDB’s message', async () => {
      await expect(target.preview('SELECT nosuch FROM orders')).rejects.toThrow(
        /DuckDB could not run the preview: Binder Error: Referenced column "nosuch"/,
      );
    });
  });

  describe('time limit', () => {
    it.each([
      ['a huge cross join', 'SELECT count(*) FROM range(100000000) a, range(1000) b'],
      [
        'an endless recursive CTE',
        'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
      ],
    ])('stops %s and keeps the target usable', async (_name, sql) => {
      const slow = open({ queryTimeoutMs: 200 });
      const started = Date.now();
      const error: unknown = await slow.preview(sql).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(TargetQueryError);
      expect((error as Error).message).toBe('query exceeded the 200 ms time limit');
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect(slow.preview('SELECT 42 AS answer')).resolves.toEqual({
        columns: ['answer'],
        rows: [[42]],
        truncated: false,
      });
      await expect(slow.validate('SELECT count(*) FROM orders', tmp(7))).resolves.toMatchObject({ ok: true });
    });
  });
});
