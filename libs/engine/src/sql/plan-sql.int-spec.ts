import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Pool } from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Column } from '@nl2p/envelope';
import {
  checkPlan,
  QueryPlan,
  type Aggregate,
  type Condition,
  type Literal,
  type QueryPlanInput,
  type ValueExpr,
} from '@nl2p/query-plan';
import { ensureDemoDatabase } from '../duckdb/demo-data';
import { demoDataset, type DemoColumnType, type DemoTable } from './demo-dataset';
import { DuckDbTarget } from '../duckdb/duckdb-target';
import { ensurePostgresDemo } from '../postgres/demo-data';
import { PostgresTarget } from '../postgres/postgres-target';
import { targetProfile } from '../targets';
import { DUCKDB_DIALECT, POSTGRES_DIALECT } from './sql-dialects';

/**
 * Property (issue 14): every plan the catalog check accepts compiles to SQL the engine accepts
 * and runs. Random valid plans over the demo data — joins, filters on real values, text matches,
 * timestamp ranges, buckets of every unit and several sizes, aggregates, HAVING, DISTINCT, order
 * and limit — are compiled for DuckDB and PostgreSQL and validated on a real instance of each.
 * Both must then return the same rows (numbers rounded, order and LIMIT aside, since ties may
 * break differently): the same plan is the same question, so any difference is dialect drift.
 */
const url = process.env.POSTGRES_URL;
if (!url) {
  console.log(
    'plan-sql: POSTGRES_URL is not set, so only DuckDB runs the random plans (tools/demo-data/start-postgres.sh starts one)',
  );
}

const TMP = '__nl2pipeline_tmp__0123456789abcdef0123456789abcdef_1_1';
const demo = demoDataset();
const tableOf = (name: string): DemoTable => {
  const t = demo.find((x) => x.name === name);
  if (!t) throw new Error(`no demo table ${name}`);
  return t;
};
/** The joins the demo supports, by their keys. */
const JOINS: Record<string, { table: string; key: string }> = {
  orders: { table: 'customers', key: 'customer_id' },
  sensor_readings: { table: 'devices', key: 'device_id' },
};
const CLASS: Record<DemoColumnType, 'number' | 'text' | 'time'> = {
  integer: 'number',
  double: 'number',
  decimal: 'number',
  text: 'text',
  timestamp: 'time',
};

/** Output values compared across engines: numbers to 9 significant digits, the rest as text. */
function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  // DuckDB's timestamps, dates and decimals are objects whose toString is the SQL text.
  const s =
    typeof v === 'string' ? v
    : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v)
    : (v as { toString(): string }).toString(); // prettier-ignore
  if (!/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(s)) return s;
  const n = Number(s);
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(9)));
}
/** Rows as a sorted list of canonical lines (a multiset: order and ties aside). */
const rowSet = (rows: unknown[][]): string[] => rows.map((r) => r.map(canonical).join(' | ')).sort();

/** Plans over one demo table, sometimes joined with its partner. */
const planArb: fc.Arbitrary<QueryPlanInput> = fc
  .record({ source: fc.constantFrom(...demo.map((t) => t.name)), joined: fc.boolean(), left: fc.boolean() })
  .chain(({ source, joined, left }) => {
    const join = joined ? JOINS[source] : undefined;
    const scope = [tableOf(source), ...(join ? [tableOf(join.table)] : [])];
    // Every column once (a joined table's copy of the key is reached through the source's).
    const cols = scope.flatMap((t) =>
      t.columns
        .filter((c) => t.name === source || c.name !== join?.key)
        .map((c, _i, _a) => ({ name: c.name, cls: CLASS[c.type], values: valuesOf(t, c.name) })),
    );
    const of = (cls: 'number' | 'text' | 'time') => cols.filter((c) => c.cls === cls);
    const numeric = of('number');
    const text = of('text');
    const time = of('time');
    const ref = (column: string): ValueExpr => ({ kind: 'column', ref: { column } });

    const str = (value: string): Literal => ({ kind: 'string', value });
    // `devices` alone has no numbers: arbitraries over a class the scope lacks are left out.
    const ifAny = <T, U>(list: T[], arb: () => fc.Arbitrary<U>): fc.Arbitrary<U>[] => (list.length ? [arb()] : []);
    const conditions: fc.Arbitrary<Condition>[] = [
      ...ifAny(numeric, () => fc.record({ c: fc.constantFrom(...numeric), op: fc.constantFrom('=', '!=', '<', '<=', '>', '>='), n: fc.integer({ min: 0, max: 100 }) }).map(
        (x): Condition => ({ kind: 'compare', left: ref(x.c.name), op: x.op as '<', value: { kind: 'number', value: x.n } }),
      )),
      ...ifAny(numeric, () => fc.record({ c: fc.constantFrom(...numeric), lo: fc.integer({ min: 0, max: 50 }), span: fc.integer({ min: 0, max: 50 }) }).map(
        (x): Condition => ({ kind: 'between', column: { column: x.c.name }, low: { kind: 'number', value: x.lo }, high: { kind: 'number', value: x.lo + x.span } }),
      )),
      fc.constantFrom(...text).chain((c) =>
        fc.record({ vs: fc.subarray(c.values, { minLength: 1, maxLength: 3 }), negated: fc.boolean() }).map(
          (x): Condition => ({ kind: 'in', column: { column: c.name }, values: x.vs.map(str), negated: x.negated }),
        ),
      ),
      // A piece of a real value in scrambled case (ILIKE on both), sometimes with a wildcard
      // character that must match only itself.
      fc.constantFrom(...text).chain((c) =>
        fc.record({ v: fc.constantFrom(...c.values), at: fc.nat(), len: fc.integer({ min: 1, max: 4 }), upper: fc.boolean(), match: fc.constantFrom('contains', 'starts_with', 'ends_with'), wild: fc.constantFrom('', '', '', '%', '_') }).map((x): Condition => {
          const start = x.match === 'starts_with' ? 0 : x.match === 'ends_with' ? Math.max(0, x.v.length - x.len) : x.at % Math.max(1, x.v.length);
          const piece = x.v.slice(start, start + x.len) + x.wild;
          return { kind: 'text', column: { column: c.name }, match: x.match as 'contains', value: x.upper ? piece.toUpperCase() : piece };
        }),
      ),
      fc.record({ c: fc.constantFrom(...cols), negated: fc.boolean() }).map((x): Condition => ({ kind: 'null', column: { column: x.c.name }, negated: x.negated })),
      ...(time.length
        ? [fc.constantFrom(...time).chain((c) =>
            fc.record({ a: fc.constantFrom(...c.values), b: fc.constantFrom(...c.values), between: fc.boolean() }).map((x): Condition => {
              const [lo, hi] = [x.a, x.b].sort();
              // Minutes only sometimes: literals are written in full either way.
              const stamp = (v: string): Literal => ({ kind: 'timestamp', value: v.length > 16 && lo < hi ? v : v.slice(0, 10) });
              return x.between
                ? { kind: 'between', column: { column: c.name }, low: stamp(lo), high: stamp(hi) }
                : { kind: 'compare', left: ref(c.name), op: '>=', value: stamp(lo) };
            }),
          )]
        : []),
    ]; // prettier-ignore
    const leaf = fc.oneof(...conditions);
    const condition: fc.Arbitrary<Condition> = fc.oneof(
      { arbitrary: leaf, weight: 3 },
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), conditions: fc.array(leaf, { minLength: 2, maxLength: 3 }) }),
      leaf.map((c): Condition => ({ kind: 'not', condition: c })),
    ); // prettier-ignore
    const arith: fc.Arbitrary<ValueExpr | null> = numeric.length
      ? fc.record({ a: fc.constantFrom(...numeric), b: fc.constantFrom(...numeric), op: fc.constantFrom('+', '-', '*', '/'), literal: fc.boolean(), n: fc.integer({ min: 1, max: 9 }) })
          .map((x): ValueExpr => ({ kind: 'arith', op: x.op as '+', left: ref(x.a.name), right: x.literal ? { kind: 'number', value: x.n } : ref(x.b.name) }))
      : fc.constant(null); // prettier-ignore
    // min/max over numbers and times only: text order depends on the database's collation.
    const aggregate: fc.Arbitrary<Aggregate> = fc.oneof(
      fc.constant<Aggregate>({ fn: 'count', arg: null, distinct: false }),
      fc.constantFrom(...text).map((c): Aggregate => ({ fn: 'count', arg: ref(c.name), distinct: true })),
      ...ifAny(numeric, () => fc.record({ fn: fc.constantFrom('sum', 'avg', 'min', 'max'), c: fc.constantFrom(...numeric) }).map((x): Aggregate => ({ fn: x.fn, arg: ref(x.c.name), distinct: false }))),
      ...ifAny(numeric, () => arith.filter((e): e is ValueExpr => e !== null).map((e): Aggregate => ({ fn: 'sum', arg: e, distinct: false }))),
      ...(time.length ? [fc.record({ fn: fc.constantFrom('min', 'max'), c: fc.constantFrom(...time) }).map((x): Aggregate => ({ fn: x.fn, arg: ref(x.c.name), distinct: false }))] : []),
    ); // prettier-ignore
    const bucket = fc.option(
      fc.record({
        column: fc.constantFrom(...(time.length ? time : [{ name: '' }])).map((c) => ({ column: c.name })),
        unit: fc.constantFrom('second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'),
        size: fc.constantFrom(1, 1, 2, 3, 7, 15),
        as_date: fc.boolean(),
      }).map((b) => ({ ...b, unit: b.unit as 'day', as_date: b.as_date && !['second', 'minute', 'hour'].includes(b.unit) })),
      { nil: null, freq: 2 },
    ); // prettier-ignore

    const base = {
      source,
      joins: join ? [{ table: join.table, kind: left ? ('left' as const) : ('inner' as const), on: [{ left: { column: join.key }, right: { column: join.key } }] }] : [],
    }; // prettier-ignore
    const where = fc.option(condition, { nil: null, freq: 3 });
    const limit = fc.option(fc.integer({ min: 1, max: 30 }), { nil: null });

    // Rows as they are: some columns or a computed value, maybe distinct, sorted, limited.
    const rows = fc
      .record({ shown: fc.subarray(cols.map((c) => c.name), { minLength: 1, maxLength: 3 }), computed: arith, distinct: fc.boolean(), where, desc: fc.boolean(), limit })
      .map((r): QueryPlanInput => {
        const select = [...r.shown.map((c) => ({ kind: 'value' as const, expr: ref(c) })), ...(r.computed ? [{ kind: 'value' as const, expr: r.computed }] : [])];
        return { ...base, select, distinct: r.distinct, where: r.where, order_by: [{ key: { kind: 'output', index: 0 }, direction: r.desc ? 'desc' : 'asc' }], limit: r.limit };
      }); // prettier-ignore

    // Groups: keys, maybe a time bucket, aggregates, HAVING, sorted on an aggregate or an output.
    const groups = fc
      .record({
        keys: fc.subarray([...text, ...numeric].map((c) => c.name), { maxLength: 2 }),
        bucket: time.length ? bucket : fc.constant(null),
        aggs: fc.array(aggregate, { minLength: 1, maxLength: 3 }),
        where,
        having: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
        order: fc.constantFrom('output', 'aggregate'),
        desc: fc.boolean(),
        limit,
      })
      .map((r): QueryPlanInput => {
        const select = [
          ...(r.bucket ? [{ kind: 'bucket' as const }] : []),
          ...r.keys.map((k) => ({ kind: 'value' as const, expr: ref(k) })),
          ...r.aggs.map((aggregate) => ({ kind: 'aggregate' as const, aggregate })),
        ];
        return {
          ...base,
          select,
          where: r.where,
          time_bucket: r.bucket,
          having: r.having === null ? [] : [{ aggregate: { fn: 'count', arg: null, distinct: false }, op: '>', value: r.having }],
          order_by: [r.order === 'aggregate' ? { key: { kind: 'aggregate', aggregate: r.aggs[0] }, direction: r.desc ? 'desc' : 'asc' } : { key: { kind: 'output', index: 0 }, direction: r.desc ? 'desc' : 'asc' }],
          limit: r.limit,
        };
      }); // prettier-ignore

    return fc.oneof(rows, { arbitrary: groups, weight: 2 });
  });

function valuesOf(t: DemoTable, column: string): string[] {
  const i = t.columns.findIndex((c) => c.name === column);
  return [
    ...new Set(
      t.rows
        .map((r) => r[i])
        .filter((v) => v !== null && v !== undefined)
        .map(String),
    ),
  ].slice(0, 30);
}

describe('random valid plans run on the real databases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nl2p-plans-'));
  const schema = `nl2p_plans_${process.pid}_${Date.now().toString(36)}`;
  let duck: DuckDbTarget;
  let duckReader: DuckDBInstance;
  let pg: PostgresTarget | null = null;
  let admin: Pool | null = null;
  let tables: Record<string, Column[]>;

  beforeAll(async () => {
    const file = join(dir, 'demo.duckdb');
    await ensureDemoDatabase(file);
    duck = new DuckDbTarget({ path: file, previewRows: 5, queryTimeoutMs: 5_000 });
    duckReader = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    // The catalog as the product reads it: the check and the compilers see the adapter's types.
    tables = Object.fromEntries((await duck.listStreams()).map((s) => [s.name, s.columns]));
    if (url) {
      admin = new Pool({ connectionString: url, max: 2 });
      await ensurePostgresDemo(admin, { schema });
      pg = new PostgresTarget({ connectionString: url, schema, previewRows: 5, statementTimeoutMs: 5_000 });
    }
  });

  afterAll(async () => {
    await duck?.close();
    await pg?.close();
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    duckReader?.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  async function duckRows(sql: string): Promise<string[]> {
    const conn = await duckReader.connect();
    try {
      return rowSet((await conn.runAndReadAll(sql)).getRows());
    } finally {
      conn.closeSync();
    }
  }
  async function pgRows(sql: string): Promise<string[]> {
    if (!admin) throw new Error('no PostgreSQL');
    const client = await admin.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      // Every value as PostgreSQL prints it, so timestamps and numerics are not reinterpreted.
      const raw = { getTypeParser: () => (v: string) => v };
      const r = await client.query({ text: sql, rowMode: 'array', types: raw });
      return rowSet(r.rows as unknown[][]);
    } finally {
      client.release();
    }
  }

  it('every plan the check accepts compiles, validates and runs on both, and both return the same rows', async () => {
    let compared = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(planArb, async (input) => {
        const checked = checkPlan(QueryPlan.parse(input), tables);
        if (!checked.ok) throw new Error(`the plan check refused a valid plan: ${checked.errors.join('; ')}`);
        const duckSql = targetProfile('duckdb').compiler.compile(checked.plan, tables).sql;
        const d = await duck.validate(duckSql, TMP);
        if (!d.ok) throw new Error(`DuckDB refused ${duckSql}: ${d.error}`);
        if (!pg) return;
        const pgSql = targetProfile('postgres').compiler.compile(checked.plan, tables).sql;
        const p = await pg.validate(pgSql, TMP);
        if (!p.ok) throw new Error(`PostgreSQL refused ${pgSql}: ${p.error}`);
        // Rows compared without LIMIT: which of several tied rows a limit keeps is up to each engine.
        const all = { ...checked.plan, limit: null };
        const duckAll = targetProfile('duckdb').compiler.compile(all, tables).sql;
        const pgAll = targetProfile('postgres').compiler.compile(all, tables).sql;
        const [a, b] = await Promise.all([duckRows(duckAll), pgRows(pgAll)]);
        expect({ duckAll, pgAll, rows: a }).toEqual({ duckAll, pgAll, rows: b });
        compared += 1;
        if (a.length > 0) nonEmpty += 1;
      }),
      { numRuns: 150, seed: 14 },
    );
    if (url) {
      expect(compared).toBe(150);
      // Filters on real values: most plans have rows to compare, so equality is not vacuous.
      expect(nonEmpty).toBeGreaterThan(75);
    }
  }, 180_000);

  it('buckets and division agree on edge values the demo data lacks (before 2000, leap days, zero divisors)', async () => {
    if (!pg) return;
    const stamps = [
      '1999-05-03 10:07:31',
      '1970-01-01 00:00:00',
      '2000-01-01 00:00:00',
      '2024-02-29 23:59:59',
      '2031-12-31 12:00:00',
    ];
    const units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
    const items: string[][] = [[], []];
    for (const t of stamps) {
      for (const unit of units) {
        for (const size of [1, 2, 5, 7, 15]) {
          const b = { column: { column: 'x' }, unit, size, as_date: false };
          items[0].push(DUCKDB_DIALECT.bucket?.(`TIMESTAMP '${t}'`, b) ?? '');
          items[1].push(POSTGRES_DIALECT.bucket?.(`TIMESTAMP '${t}'`, b) ?? '');
        }
      }
    }
    for (const [l, r] of [
      ['7', '2'],
      ['7', '0'],
      ['-7', '2'],
      ['7.5', '0'],
    ]) {
      items[0].push(DUCKDB_DIALECT.divide?.(l, r, false) ?? '');
      items[1].push(POSTGRES_DIALECT.divide?.(l, r, false) ?? '');
    }
    const [a, b] = await Promise.all([
      duckRows(`SELECT ${items[0].join(', ')}`),
      pgRows(`SELECT ${items[1].join(', ')}`),
    ]);
    expect(a[0].split(' | ')).toEqual(b[0].split(' | '));
  });

  it('a plan naming what the catalog lacks is refused before any SQL exists, naming the closest column', () => {
    const checked = checkPlan(QueryPlan.parse({ source: 'sensor_readings', select: [{ kind: 'value', expr: { kind: 'column', ref: { column: 'temp' } } }] }), tables);
    expect(checked).toEqual({ ok: false, errors: ["no column 'temp' in sensor_readings; did you mean temperature?"] });
  }); // prettier-ignore
});
