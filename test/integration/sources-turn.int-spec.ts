import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Pool } from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import { demoTables, SPLIT_DEMO, writeDuckDbTables, writePostgresTables } from '@nl2p/engine';
import type { NodeTraceRecord } from '@nl2p/envelope';
import { ANSWER_SYSTEM_MARK } from '@nl2p/prompts';
import { FakeManager, ScriptedLlm, type ScriptedRequest } from '@nl2p/testing';
import { cli, type CliIo } from '../../apps/cli/src/cli';
import { GatewayClient } from '../support/client';
import { startStack, type Stack } from '../support/stack';

// A session over all SQL sources, through the gateway and the workers over BullMQ/Redis: the demo
// split across a real DuckDB file (`shop`: orders, sensor readings) and a real PostgreSQL schema
// (`crm`: customers, devices). No model is asked: the linker reads the request.
const POSTGRES_URL = process.env.POSTGRES_URL;
if (!POSTGRES_URL)
  console.warn('sources-turn: POSTGRES_URL is unset, so these cases are skipped (npm test starts one)');
const suite = POSTGRES_URL ? describe : describe.skip;

const HOT_SITES_GOLD =
  'SELECT d.site, avg(r.temperature) AS avg_temp FROM sensor_readings r JOIN devices d ON r.device_id = d.device_id GROUP BY d.site ORDER BY d.site';

suite('a turn over all SQL sources (real DuckDB + real PostgreSQL)', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  const schema = `crm_turn_${process.pid}_${Date.now().toString(36)}`;
  const dir = mkdtempSync(join(tmpdir(), 'nl2p-sources-turn-'));
  const shopPath = join(dir, 'shop.duckdb');
  let admin: Pool;
  let managerUrl: string;
  let llmUrl: string;
  const stacks: Stack[] = [];
  let goldWritten: Promise<void> | undefined;

  async function stackWith(crmUrl: string, env: Record<string, string> = {}): Promise<GatewayClient> {
    const stack = await startStack({
      managerUrl,
      llmUrl,
      env: {
        SQL_SOURCES: `shop=duckdb:${shopPath},crm=postgres:${crmUrl}#${schema}`,
        LINKING: 'true',
        // The answer in words by rule, unless a case asks the (scripted) server model for it.
        ANSWER_WRITER: 'template',
        ...env,
      },
    });
    stacks.push(stack);
    return new GatewayClient(stack.gatewayUrl);
  }

  async function gold(sql: string): Promise<unknown[][]> {
    // The same rows in one database: the gold answer.
    const path = join(dir, 'gold.duckdb');
    goldWritten ??= writeDuckDbTables(path, demoTables([...SPLIT_DEMO.duckdb, ...SPLIT_DEMO.postgres]));
    await goldWritten;
    const db = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const c = await db.connect();
    try {
      return (await c.runAndReadAll(sql)).getRowsJS();
    } finally {
      c.closeSync();
      db.closeSync();
    }
  }

  beforeAll(async () => {
    [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    admin = new Pool({ connectionString: POSTGRES_URL, max: 3 });
    await writeDuckDbTables(shopPath, demoTables(SPLIT_DEMO.duckdb));
    await writePostgresTables(admin, schema, demoTables(SPLIT_DEMO.postgres));
  });

  afterAll(async () => {
    for (const s of stacks) await s.close();
    await Promise.all([manager.stop(), llm.stop()]);
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a question joining both sources: each part on its engine, the combine, the rows and a sentence', async () => {
    const api = await stackWith(POSTGRES_URL ?? '');
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'average temperature per site' });

    expect(view.status).not.toBe('failed');
    expect(view.interrupt).toBeNull();
    expect(view.sources).toBe('all');
    const parts = view.sources_run.parts as {
      source: string;
      engine: string;
      sql: string;
      explain: string;
      rows: number;
    }[];
    expect(parts.map((p) => [p.source, p.engine]).sort()).toEqual([['crm', 'PostgreSQL'], ['shop', 'DuckDB']]); // prettier-ignore
    const shop = parts.find((p) => p.source === 'shop');
    const crm = parts.find((p) => p.source === 'crm');
    // Each part reads only its own source's table, under its own name.
    expect(shop?.sql).toMatch(/sensor_readings/);
    expect(shop?.sql).not.toMatch(/devices/);
    expect(crm?.sql).toMatch(/devices/);
    expect(crm?.sql).not.toMatch(/sensor_readings/);
    for (const p of parts) expect(p.explain.length).toBeGreaterThan(0);
    expect(view.sources_run.combine_sql).toMatch(/JOIN/i);
    expect(view.sql).toBe(view.sources_run.combine_sql);

    const expected = await gold(HOT_SITES_GOLD);
    expect(expected.length).toBeGreaterThan(0);
    const rows = view.preview.rows as unknown[][];
    const sorted = [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sorted.map((r) => r[0])).toEqual(expected.map((r) => r[0]));
    sorted.forEach((r, i) => expect(Number(r[1])).toBeCloseTo(Number(expected[i][1]), 6));
    // The answer in words names what the rows hold.
    expect(view.answer.kind).toBe('message');
    expect(view.answer.text).toContain(String(expected[0][0]));
    expect(llm.requests.length).toBe(0);
  });

  it('reads a value only one source holds, and a table by its own name, as over one database', async () => {
    const api = await stackWith(POSTGRES_URL ?? '');
    const before = llm.requests.length;
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'how many orders came from customers in Germany' });

    expect(view.interrupt).toBeNull();
    const parts = view.sources_run.parts as { source: string; sql: string }[];
    // 'Germany' is a value of crm.customers.country (PostgreSQL): the filter runs there, not after the join.
    expect(parts.find((p) => p.source === 'crm')?.sql).toMatch(/WHERE\s+"?country"?\s*=\s*'Germany'/);
    expect(parts.find((p) => p.source === 'shop')?.sql).not.toMatch(/Germany/);
    const expected = await gold(
      "SELECT count(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE c.country = 'Germany'",
    );
    expect(view.preview.rows).toEqual([[Number(expected[0]?.[0])]]);

    // 'more than 20 orders' is a count per country the reading cannot settle: it asks. Over
    // source-qualified names it was read as order_id > 20 and 800 rows were presented as the answer.
    const unclear = await api.turn(id, { text: 'countries with more than 20 orders' });
    expect(unclear.interrupt).toMatchObject({ type: 'need_clarification' });
    expect(unclear.preview).toBeNull();
    expect(llm.requests.length).toBe(before);
  });

  it('asks which source is meant when the request names a table two sources hold', async () => {
    const warehouse = join(dir, 'warehouse.duckdb');
    await writeDuckDbTables(warehouse, demoTables(['customers']));
    const stack = await startStack({
      managerUrl,
      llmUrl,
      env: { SQL_SOURCES: `shop=duckdb:${shopPath},crm=postgres:${POSTGRES_URL}#${schema},warehouse=duckdb:${warehouse}`, LINKING: 'true', ANSWER_WRITER: 'template' }, // prettier-ignore
    });
    stacks.push(stack);
    const api = new GatewayClient(stack.gatewayUrl);
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'how many customers are there' });
    expect(view.interrupt?.question).toBe(
      'The table customers exists in 2 sources (crm.customers, warehouse.customers); which one do you mean?',
    );
    expect(view.sources_run).toBeNull();
    expect(view.answer).toBeNull();
  });

  it("a server model words the answer; a sentence stating a number the rows do not hold is refused for the template's", async () => {
    const api = await stackWith(POSTGRES_URL ?? '', { ANSWER_WRITER: 'model' });
    const expected = await gold(HOT_SITES_GOLD);
    const [site, avg] = [String(expected[0][0]), Number(expected[0][1])];
    const backed = `Site ${site} averages ${avg.toFixed(2)} degrees; ${expected.length} sites have readings.`;
    const invented = `Across all sites the average is ${(avg + 7.77).toFixed(2)} degrees.`;
    const asksForWords = (_: string, r: ScriptedRequest) => r.messages.some((m) => m.content.includes(ANSWER_SYSTEM_MARK)); // prettier-ignore
    llm.when(asksForWords, { content: backed }, { times: 1 });
    llm.when(asksForWords, { content: invented }, { times: 1 });
    const before = llm.requests.length;

    const id = await api.createSession({ sources: 'all' });
    const worded = await api.turn(id, { text: 'average temperature per site' });
    expect(worded.answer).toEqual({ kind: 'message', text: backed, data: { written_by: 'model' } });
    // The model was shown the request and the combined rows, nothing else of the sources.
    const prompt = llm.requests[before]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('average temperature per site');
    expect(prompt).toContain(JSON.stringify(site));
    expect(prompt).not.toMatch(/crm\.devices|SELECT/);

    const refused = await api.turn(id, { text: 'average temperature per site' });
    expect(refused.answer.text).not.toContain(invented);
    expect(refused.answer.text).toContain(site);
    expect(refused.answer.data).toEqual({
      written_by: 'template',
      rejected: `the model's sentence states ${(avg + 7.77).toFixed(2)}, which no row holds`,
    });
    expect(llm.requests.length - before).toBe(2);
  });

  it('the CLI shows what ran where, the rows of each part, the combine step and the answer', async () => {
    const api = await stackWith(POSTGRES_URL ?? '');
    const { code, out } = await runCli(['ask', 'average temperature per site', '--sources', 'all'], api.baseUrl);
    expect(code).toBe(0);
    const expected = await gold(HOT_SITES_GOLD);
    const readings = Number((await gold('SELECT count(*) FROM sensor_readings'))[0]?.[0]);
    const devices = Number((await gold('SELECT count(*) FROM devices'))[0]?.[0]);
    // One line per part: source, engine, the rows it returned (all of its table: no filter), not capped.
    expect(out).toMatch(new RegExp(`^shop\\s+DuckDB\\s+${readings}\\s+no\\s+\\d+$`, 'm'));
    expect(out).toMatch(new RegExp(`^crm\\s+PostgreSQL\\s+${devices}\\s+no\\s+\\d+$`, 'm'));
    expect(out).toMatch(/┌─ shop · DuckDB[^\n]*\n│ SELECT [^\n]*FROM sensor_readings\n/);
    expect(out).toMatch(/┌─ crm · PostgreSQL[^\n]*\n│ SELECT [^\n]*FROM devices\n/);
    expect(out).toContain(`┌─ combine · DuckDB, in process · ${expected.length} rows`);
    expect(out).toMatch(/^answer .*\b(berlin-lab|hamburg-port|munich-plant)\b/m);
    for (const [site] of expected) expect(out).toContain(String(site));
  });

  it('a source that is down fails the turn naming it, with nothing presented', async () => {
    // A port nothing listens on: PostgreSQL is unreachable, DuckDB is fine.
    const api = await stackWith('postgres://nobody@127.0.0.1:1/none');
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'average temperature per site' });

    expect(view.status).toBe('failed');
    expect(view.error.message).toMatch(/source crm \(PostgreSQL\)/);
    expect(view.sources_run).toBeNull();
    expect(view.preview).toBeNull();
    expect(view.answer).toBeNull();
  });

  it('asks when the request cannot be read over the sources, and answers once the reply says it', async () => {
    const api = await stackWith(POSTGRES_URL ?? '');
    const before = llm.requests.length;
    const id = await api.createSession({ sources: 'all' });
    const asked = await api.turn(id, { text: 'show me something interesting' });

    expect(asked.status).not.toBe('failed');
    expect(asked.interrupt).toMatchObject({ type: 'need_clarification' });
    expect(asked.interrupt.question).toMatch(/'something interesting'.*\?/);
    // Nothing ran: no part, no rows, no sentence presented as an answer.
    expect(asked.sources_run).toBeNull();
    expect(asked.preview).toBeNull();
    expect(asked.answer).toBeNull();

    const answered = await api.turn(id, { text: 'average temperature per site' });
    expect(answered.interrupt).toBeNull();
    const expected = await gold(HOT_SITES_GOLD);
    expect((answered.preview.rows as unknown[][]).map((r) => r[0]).sort()).toEqual(expected.map((r) => r[0]));
    expect(answered.sources_run.parts).toHaveLength(2);
    expect(llm.requests.length).toBe(before);
  });

  it('a request that needs a veloFlux stream and a table says so in a sentence, and runs nothing', async () => {
    const api = await stackWith(POSTGRES_URL ?? '');
    expect(manager.streamNames()).toContain('sensor_stream');
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'average temperature of sensor_stream per device site' });

    expect(view.interrupt).toMatchObject({ type: 'need_clarification' });
    expect(view.interrupt.question).toMatch(
      /^This request reads the veloFlux stream sensor_stream, and a question over the SQL sources cannot read veloFlux streams yet/,
    );
    expect(view.sources_run).toBeNull();
    expect(view.answer).toBeNull();
  });

  it('a part over its row limit is never joined: the turn says so and asks to narrow', async () => {
    const readings = (await gold('SELECT count(*) FROM sensor_readings'))[0]?.[0];
    expect(Number(readings)).toBeGreaterThan(20);
    const api = await stackWith(POSTGRES_URL ?? '', { SOURCE_ROW_LIMIT: '20' });
    const id = await api.createSession({ sources: 'all' });
    const view = await api.turn(id, { text: 'average temperature per site' });

    expect(view.status).not.toBe('failed');
    expect(view.interrupt).toMatchObject({ type: 'need_clarification' });
    expect(view.interrupt.question).toMatch(/The part on shop returned more than 20 rows .*nothing was joined.*narrow/);
    // The view shows what ran and which part was cut, but no combined rows and no answer.
    const shop = (view.sources_run.parts as { source: string; capped: boolean }[]).find((p) => p.source === 'shop');
    expect(shop?.capped).toBe(true);
    expect(view.sources_run.combine_sql).toBeNull();
    expect(view.preview).toBeNull();
    expect(view.answer).toBeNull();
  });

  it('a cancelled turn stops its parts: a part blocked on PostgreSQL does not outlive the cancel', async () => {
    const api = await stackWith(POSTGRES_URL ?? '', { QUERY_TIMEOUT_MS: '3000' });
    const id = await api.createSession({ sources: 'all' });
    // Warm the session's catalog so that only the part's own query meets the lock below.
    await api.turn(id, { text: 'how many devices are there' });
    const locker = await admin.connect();
    let cancelledAt = 0;
    try {
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${schema}".devices IN ACCESS EXCLUSIVE MODE`);
      const started = await api.request('POST', `/v1/sessions/${id}/turns`, { text: 'average temperature per site' });
      expect(started.status).toBe(202);
      await waitFor(async () => (await blockedOn('devices')).length > 0);
      expect((await blockedOn('devices')).join(' ')).toMatch(/device_id/);

      cancelledAt = Date.now();
      const cancelled = await api.request('POST', `/v1/sessions/${id}/turns/current/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('cancelled');
      // The blocked query ends by its own time limit while the lock is still held, and the turn
      // stays cancelled: nothing it ran is presented afterwards.
      await waitFor(async () => (await blockedOn('devices')).length === 0, 8_000);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await new Promise((r) => setTimeout(r, 500));
    const view = (await api.request('GET', `/v1/sessions/${id}`)).body;
    // The node stopped at the cancel, not at the part's 3 s time limit.
    const records = (await api.request('GET', `/v1/sessions/${id}/trace?turn=2`)).body.records as NodeTraceRecord[];
    const run = records.find((r) => r.node === 'run_sources');
    expect(run).toMatchObject({ ok: false, error: expect.stringMatching(/cancelled/) });
    expect(Date.parse(run?.end ?? '') - cancelledAt).toBeLessThan(1_000);
    expect(view.status).toBe('cancelled');
    expect(view.sources_run).toBeNull();
    expect(view.preview).toBeNull();
    expect(view.answer).toBeNull();
    // A new turn runs at once, on the same sources.
    const again = await api.turn(id, { text: 'average temperature per site' });
    expect(again.interrupt).toBeNull();
    expect(again.sources_run.parts).toHaveLength(2);
  });

  /** Queries of the crm schema waiting on a lock, as PostgreSQL sees them. */
  async function blockedOn(table: string): Promise<string[]> {
    const { rows } = await admin.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
      [`%${table}%`],
    );
    return rows.map((r) => r.query);
  }
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The CLI in this process with pipes for its terminal: what it printed, and its exit code. */
async function runCli(args: string[], url: string): Promise<{ code: number; out: string; err: string }> {
  const stdin = new PassThrough();
  stdin.end('');
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  let [out, err] = ['', ''];
  stdout.on('data', (b: Buffer) => (out += b.toString()));
  stderr.on('data', (b: Buffer) => (err += b.toString()));
  const io = { stdin, stdout, stderr, env: { NL2P_URL: url, NO_COLOR: '1' } };
  const code = await cli(args, io as unknown as CliIo);
  return { code, out, err };
}
