import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Pool } from 'pg';
import { tmpPipelineId } from '@nl2p/envelope';
import { countsOf, templateAnswer, unbackedNumbers } from '@nl2p/answer';
import { checkAcrossSources, combinePlan, decomposePlan, scansOf, type ExecutionDag } from '@nl2p/execution-dag';
import { parseQueryPlan, type QueryPlanInput } from '@nl2p/query-plan';
import { loadDemoData } from '../duckdb/demo-data';
import { executeDag, PartsCancelledError, qualifyPlan, SourcePartError, SqlSources, type DagOutcome } from './index';
import { demoTables, SPLIT_DEMO, writeDuckDbTables, writePostgresTables } from './split-demo';

// Real DuckDB and real PostgreSQL (POSTGRES_URL; tools/demo-data/start-postgres.sh starts one).
const url = process.env.POSTGRES_URL;
const suite = url ? describe : describe.skip;

const tmpId = tmpPipelineId('0123456789abcdef0123456789abcdef', 1, 1);
const col = (table: string, column: string) => ({ kind: 'column' as const, ref: { table, column } });
const str = (value: string) => ({ kind: 'string' as const, value });

/** Revenue per country of shipped orders from consumer customers, top 3: orders in shop, customers in crm. */
const REVENUE_BY_COUNTRY: QueryPlanInput = {
  source: 'shop.orders',
  joins: [{ table: 'crm.customers', on: [{ left: { table: 'shop.orders', column: 'customer_id' }, right: { table: 'crm.customers', column: 'customer_id' } }] }],
  select: [
    { kind: 'value', expr: col('crm.customers', 'country') },
    { kind: 'aggregate', aggregate: { fn: 'sum', arg: { kind: 'arith', op: '*', left: col('shop.orders', 'quantity'), right: col('shop.orders', 'unit_price') } }, alias: 'revenue' },
  ],
  where: { kind: 'and', conditions: [
    { kind: 'compare', left: col('shop.orders', 'status'), op: '=', value: str('shipped') },
    { kind: 'compare', left: col('crm.customers', 'segment'), op: '=', value: str('consumer') },
  ] },
  group_by: [{ table: 'crm.customers', column: 'country' }],
  order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
  limit: 3,
}; // prettier-ignore
const REVENUE_GOLD = `SELECT c.country, sum(o.quantity * o.unit_price) AS revenue FROM orders o JOIN customers c ON o.customer_id = c.customer_id
  WHERE o.status = 'shipped' AND c.segment = 'consumer' GROUP BY c.country ORDER BY revenue DESC LIMIT 3`;

/** Average temperature per site above 30 degrees: readings in shop, devices in crm. */
const HOT_SITES: QueryPlanInput = {
  source: 'shop.sensor_readings',
  joins: [{ table: 'crm.devices', on: [{ left: { table: 'shop.sensor_readings', column: 'device_id' }, right: { table: 'crm.devices', column: 'device_id' } }] }],
  select: [
    { kind: 'value', expr: col('crm.devices', 'site') },
    { kind: 'aggregate', aggregate: { fn: 'avg', arg: col('shop.sensor_readings', 'temperature') }, alias: 'avg_temp' },
    { kind: 'aggregate', aggregate: { fn: 'count' }, alias: 'readings' },
  ],
  where: { kind: 'compare', left: col('shop.sensor_readings', 'temperature'), op: '>', value: { kind: 'number', value: 30 } },
  group_by: [{ table: 'crm.devices', column: 'site' }],
  order_by: [{ key: { kind: 'output', index: 0 }, direction: 'asc' }],
}; // prettier-ignore
const HOT_SITES_GOLD = `SELECT d.site, avg(r.temperature) AS avg_temp, count(*) AS readings FROM sensor_readings r JOIN devices d ON r.device_id = d.device_id
  WHERE r.temperature > 30 GROUP BY d.site ORDER BY d.site`;

suite('questions across sources (real DuckDB + real PostgreSQL)', () => {
  const run = `${process.pid}_${Date.now().toString(36)}`;
  const schemas = { crm: `crm_${run}`, messy: `messy_${run}`, bad: `bad_${run}` };
  const dir = mkdtempSync(join(tmpdir(), 'nl2p-sources-'));
  const shopPath = join(dir, 'shop.duckdb');
  let admin: Pool;
  let gold: DuckDBInstance;
  const opened: SqlSources[] = [];

  function sources(crmSchema: string, rowLimit = 10_000, crmUrl = url ?? ''): SqlSources {
    const s = new SqlSources(
      [
        { name: 'shop', engine: 'duckdb', path: shopPath },
        { name: 'crm', engine: 'postgres', url: crmUrl, schema: crmSchema },
      ],
      { rowLimit, queryTimeoutMs: 5_000 },
    );
    opened.push(s);
    return s;
  }

  async function plan(s: SqlSources, input: QueryPlanInput): Promise<{ dag: ExecutionDag; tables: Awaited<ReturnType<SqlSources['catalog']>>['tables'] }> {
    const { tables } = await s.catalog();
    const checked = checkAcrossSources(parseQueryPlan(input), tables);
    if (!checked.ok) throw new Error(checked.errors.join('; '));
    return { dag: decomposePlan(checked.plan, tables), tables };
  } // prettier-ignore

  const dags = new WeakMap<DagOutcome, ExecutionDag>();
  const dagOf = (outcome: DagOutcome): ExecutionDag => dags.get(outcome) as ExecutionDag;

  async function ask(s: SqlSources, input: QueryPlanInput, signal?: AbortSignal): Promise<DagOutcome> {
    const { dag, tables } = await plan(s, input);
    const outcome = await executeDag(dag, s, tables, { tmpId, signal, rowLimit: 1_000, timeoutMs: 5_000 });
    dags.set(outcome, dag);
    return outcome;
  }

  async function goldRows(sql: string): Promise<unknown[][]> {
    const c = await gold.connect();
    try {
      return (await c.runAndReadAll(sql)).getRowsJS().map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    } finally {
      c.closeSync();
    }
  }

  function expectSameRows(actual: unknown[][], expected: unknown[][]): void {
    // A gold answer with no rows would let a broken join pass.
    expect(expected.length).toBeGreaterThan(0);
    expect(actual).toHaveLength(expected.length);
    actual.forEach((row, i) =>
      row.forEach((v, j) => {
        const e = expected[i]?.[j];
        if (typeof e === 'number') expect(Number(v)).toBeCloseTo(e, 6);
        else expect(v).toEqual(e);
      }),
    );
  }

  beforeAll(async () => {
    admin = new Pool({ connectionString: url, max: 2 });
    await writeDuckDbTables(shopPath, demoTables(SPLIT_DEMO.duckdb));
    await writePostgresTables(admin, schemas.crm, demoTables(SPLIT_DEMO.postgres));
    // The same tables with keys spelled another way: customer ids as zero-padded text, device ids
    // in upper case with a trailing space.
    await writePostgresTables(admin, schemas.messy, demoTables(SPLIT_DEMO.postgres, (t) => ({
      ...t,
      columns: t.columns.map((c) => (c.name === 'customer_id' ? { ...c, type: 'text' as const } : c)),
      rows: t.rows.map((r) => r.map((v, i) =>
        t.columns[i]?.name === 'customer_id' ? String(v).padStart(4, '0') : t.columns[i]?.name === 'device_id' ? `${String(v).toUpperCase()} ` : v)),
    }))); // prettier-ignore
    // Customer ids no rule reconciles with the orders' integers.
    await writePostgresTables(admin, schemas.bad, demoTables(['customers'], (t) => ({
      ...t,
      columns: t.columns.map((c) => (c.name === 'customer_id' ? { ...c, type: 'text' as const } : c)),
      rows: t.rows.map((r) => r.map((v, i) => (i === 0 ? `C-${String(v)}` : v))),
    }))); // prettier-ignore
    gold = await DuckDBInstance.create(':memory:');
    const c = await gold.connect();
    await loadDemoData(c);
    c.closeSync();
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    if (!process.env.KEEP)
      for (const schema of Object.values(schemas)) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    gold.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  it('joins orders and customers across engines and aggregates after the join, as one database would', async () => {
    const outcome = await ask(sources(schemas.crm), REVENUE_BY_COUNTRY);
    if (outcome.kind !== 'answer') throw new Error(outcome.question);
    expect(outcome.columns).toEqual(['country', 'revenue']);
    expectSameRows(outcome.rows, await goldRows(REVENUE_GOLD));
    expect(outcome.combine?.sql).toMatch(
      /JOIN scan_crm ON scan_shop\.orders_customer_id = scan_crm\.customers_customer_id/,
    );
    expect(outcome.parts.map((p) => [p.source, p.engine])).toEqual([
      ['shop', 'DuckDB'],
      ['crm', 'PostgreSQL'],
    ]);
    expect(outcome.parts.every((p) => p.explain.length > 0 && p.elapsedMs >= 0)).toBe(true);
    // The answer in words states only numbers the combined rows hold.
    const input = {
      plan: combinePlan(dagOf(outcome)),
      columns: outcome.columns,
      rows: outcome.rows,
      truncated: outcome.truncated,
      assumptions: outcome.assumptions,
    };
    const sentence = templateAnswer(input);
    expect(sentence).toMatch(/^The top 3 by revenue: /);
    expect(unbackedNumbers(sentence, outcome.rows, countsOf(input))).toEqual([]);
  });

  it('pushes each filter to the source that holds its column, and fetches only the columns needed', async () => {
    const outcome = await ask(sources(schemas.crm), REVENUE_BY_COUNTRY);
    const [shop, crm] = outcome.parts;
    expect(shop?.sql).toMatch(/WHERE status = 'shipped'/);
    expect(shop?.sql).not.toMatch(/segment|product|ordered_at/);
    expect(crm?.sql).toMatch(/WHERE segment = 'consumer'/);
    expect(crm?.sql).not.toMatch(/status|"name"|\bname\b/);
    // The filtered-out rows never left their source.
    const shipped = await goldRows(`SELECT count(*) FROM orders WHERE status = 'shipped'`);
    expect(shop?.rows).toBe(shipped[0]?.[0]);
  });

  it('answers readings per device site with the row filter pushed into DuckDB', async () => {
    const outcome = await ask(sources(schemas.crm), HOT_SITES);
    if (outcome.kind !== 'answer') throw new Error(outcome.question);
    expectSameRows(outcome.rows, await goldRows(HOT_SITES_GOLD));
    expect(outcome.parts[0]?.sql).toMatch(/WHERE temperature > 30/);
    expect(outcome.assumptions).toEqual([]);
  });

  it('reconciles keys spelled differently by rule, and says which rule', async () => {
    const revenue = await ask(sources(schemas.messy), REVENUE_BY_COUNTRY);
    if (revenue.kind !== 'answer') throw new Error(revenue.question);
    expectSameRows(revenue.rows, await goldRows(REVENUE_GOLD));
    expect(revenue.assumptions.join(' ')).toMatch(/different types; they were compared as one type/);
    expect(revenue.combine?.sql).toMatch(/orders_customer_id_key = scan_crm\.customers_customer_id_key/);
    const sites = await ask(sources(schemas.messy), HOT_SITES);
    if (sites.kind !== 'answer') throw new Error(sites.question);
    expect(sites.rows.map((r) => r[0])).toEqual((await goldRows(HOT_SITES_GOLD)).map((r) => r[0]));
    expect(sites.assumptions.join(' ')).toMatch(/ignoring case and surrounding spaces \(100 %/);
  });

  it('asks instead of joining keys that match less than half of the rows', async () => {
    const outcome = await ask(sources(schemas.bad), REVENUE_BY_COUNTRY);
    expect(outcome.kind).toBe('question');
    if (outcome.kind === 'question') expect(outcome.question).toMatch(/match for only 0 % of the rows/);
  });

  it('judges join keys on the tables as their sources hold them, so filters that leave no pair answer 0', async () => {
    // No Italian customer returned an order: the filtered parts share no key, and the answer is 0.
    const input: QueryPlanInput = {
      source: 'shop.orders',
      joins: [{ table: 'crm.customers', on: [{ left: { table: 'shop.orders', column: 'customer_id' }, right: { table: 'crm.customers', column: 'customer_id' } }] }],
      select: [{ kind: 'aggregate', aggregate: { fn: 'count' }, alias: 'orders' }],
      where: { kind: 'and', conditions: [
        { kind: 'compare', left: col('shop.orders', 'status'), op: '=', value: str('returned') },
        { kind: 'compare', left: col('crm.customers', 'country'), op: '=', value: str('Italy') },
      ] },
    }; // prettier-ignore
    const gold = await goldRows(
      "SELECT count(*) FROM orders o JOIN customers c USING (customer_id) WHERE o.status = 'returned' AND c.country = 'Italy'",
    );
    expect(gold).toEqual([[0]]);
    const outcome = await ask(sources(schemas.crm), input);
    if (outcome.kind !== 'answer') throw new Error(`asked: ${outcome.question}`);
    expect(outcome.rows.map((r) => r.map(Number))).toEqual([[0]]);
    // Each part still ran with its filter pushed down; the keys were read apart, unfiltered.
    expect(outcome.parts.find((p) => p.source === 'shop')?.sql).toMatch(/'returned'/);
    expect(outcome.parts.find((p) => p.source === 'crm')?.sql).toMatch(/'Italy'/);
    // Keys no rule reconciles still ask under the same filters.
    const bad = await ask(sources(schemas.bad), input);
    expect(bad.kind).toBe('question');
  });

  it('never joins a part that reached its row limit: it says so and asks to narrow', async () => {
    const outcome = await ask(sources(schemas.crm, 100), REVENUE_BY_COUNTRY);
    expect(outcome.kind).toBe('question');
    if (outcome.kind !== 'question') return;
    expect(outcome.question).toMatch(/The part on shop returned more than 100 rows .* nothing was joined/);
    expect(outcome.parts.find((p) => p.source === 'shop')?.capped).toBe(true);
  });

  it('fails the turn naming the source that is down', async () => {
    const down = sources(schemas.crm, 10_000, 'postgres://nobody@127.0.0.1:1/none');
    const { dag } = await plan(sources(schemas.crm), REVENUE_BY_COUNTRY);
    const tables = (await sources(schemas.crm).catalog()).tables;
    const failure = executeDag(dag, down, tables, { tmpId, rowLimit: 1_000, timeoutMs: 5_000 });
    await expect(failure).rejects.toBeInstanceOf(SourcePartError);
    await expect(failure).rejects.toMatchObject({
      source: 'crm',
      message: expect.stringMatching(/source crm \(PostgreSQL\) could not run its part/),
    });
    expect((await down.catalog()).unreadable.map((u) => u.source)).toEqual(['crm']);
  });

  it('stops every part when the turn is cancelled', async () => {
    const s = sources(schemas.crm);
    const { dag, tables } = await plan(s, REVENUE_BY_COUNTRY);
    expect(scansOf(dag)).toHaveLength(2);
    const controller = new AbortController();
    const started = Date.now();
    const running = executeDag(dag, s, tables, { tmpId, signal: controller.signal, rowLimit: 1_000, timeoutMs: 5_000 });
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(PartsCancelledError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('asks which source is meant when a bare table name is in two', async () => {
    const goldPath = join(dir, 'all.duckdb');
    await writeDuckDbTables(goldPath, demoTables(['customers', 'orders']));
    const s = new SqlSources(
      [
        { name: 'shop', engine: 'duckdb', path: shopPath },
        { name: 'crm', engine: 'postgres', url: url ?? '', schema: schemas.crm },
        { name: 'warehouse', engine: 'duckdb', path: goldPath },
      ],
      { rowLimit: 1_000, queryTimeoutMs: 5_000 },
    );
    opened.push(s);
    const catalog = await s.catalog();
    expect(catalog.shared).toEqual({ customers: ['crm', 'warehouse'], orders: ['shop', 'warehouse'] });
    const bare = qualifyPlan(
      parseQueryPlan({ source: 'customers', select: [{ kind: 'aggregate', aggregate: { fn: 'count' } }] }),
      catalog,
    );
    expect(bare).toEqual({
      question: 'The table customers exists in 2 sources (crm.customers, warehouse.customers); which one do you mean?',
    });
    const single = qualifyPlan(parseQueryPlan({ source: 'devices' }), catalog);
    expect(single).toMatchObject({ plan: { source: 'crm.devices' } });
  });
  it("reads every source's column values under source-qualified names, for linking a request's words", async () => {
    const s = sources(schemas.crm);
    const values = await s.columnValues();
    // PostgreSQL's and DuckDB's own catalog reads, each table under its source.
    expect(values['crm.customers']?.country).toEqual(expect.arrayContaining(['France', 'Germany']));
    expect(values['crm.devices']?.site).toEqual(['berlin-lab', 'hamburg-port', 'munich-plant']);
    expect(values['shop.orders']?.status).toEqual(expect.arrayContaining(['delivered', 'returned']));
    expect(Object.keys(values).every((t) => /^(shop|crm)\./.test(t))).toBe(true);
    // Kept for the catalog TTL: the second read is the same object, not a new query.
    expect(await s.columnValues()).toBe(values);
  });

  it('adds no values for a source that cannot be read, and reads it again next time', async () => {
    const s = sources(schemas.crm, 1_000, 'postgres://nobody@127.0.0.1:1/none');
    const values = await s.columnValues();
    expect(Object.keys(values).some((t) => t.startsWith('crm.'))).toBe(false);
    expect(values['shop.orders']?.status).toEqual(expect.arrayContaining(['delivered']));
    expect(await s.columnValues()).not.toBe(values);
  });
});
