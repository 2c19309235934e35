import { Pool } from 'pg';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensurePostgresDemo } from '@nl2p/engine';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { startStack, type Stack } from '../support/stack';

const POSTGRES_URL = process.env.POSTGRES_URL;
if (!POSTGRES_URL)
  console.warn('sql-targets: POSTGRES_URL is unset, so the postgres cases are skipped (npm test starts one)');
const targets = POSTGRES_URL ? ['duckdb', 'postgres'] : ['duckdb'];

// Portable across both databases (PostgreSQL has no round(double precision, int)).
const HOT =
  'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id';
const route = { intent: 'nl2sql' as const, stream: 'sensor_readings', question: null };

describe.each(targets)('the whole workflow against a real %s', (target) => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let stack: Stack;
  let api: GatewayClient;
  let script: LlmScript;

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    if (target === 'postgres') {
      const pool = new Pool({ connectionString: POSTGRES_URL });
      await ensurePostgresDemo(pool);
      await pool.end();
    }
    stack = await startStack({
      managerUrl,
      llmUrl,
      duckdb: target === 'duckdb',
      env: { QUERY_TIMEOUT_MS: '300', PREVIEW_ROWS: '3', ...(POSTGRES_URL ? { POSTGRES_URL } : {}) },
    });
    api = new GatewayClient(stack.gatewayUrl);
  });

  afterAll(async () => {
    await stack?.close();
    await Promise.all([manager.stop(), llm.stop()]);
  });

  beforeEach(() => {
    llm.reset();
    script = new LlmScript(llm);
  });

  async function tableCount(table: string): Promise<number> {
    if (target === 'postgres') {
      const pool = new Pool({ connectionString: POSTGRES_URL });
      try {
        return Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      } finally {
        await pool.end();
      }
    }
    const db = await DuckDBInstance.create(stack.config.duckdb.path, { access_mode: 'READ_ONLY' });
    try {
      const conn = await db.connect();
      const rows = await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${table}`);
      conn.closeSync();
      return Number(rows.getRowObjects()[0].n);
    } finally {
      db.closeSync();
    }
  }

  it('happy path: grounded in the real tables, validated by EXPLAIN, with the plan and preview rows', async () => {
    script.route(route).draft(HOT);
    const id = await api.createSession({ target });
    const view = await api.turn(id, { text: 'average temperature per device when above 30' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toBe(HOT);
    expect(view.explain.length).toBeGreaterThan(20);
    expect(view.pipeline_request).toBeNull();
    expect(view.preview.columns).toEqual(['device_id', 'avg_temp']);
    expect(view.preview.rows.length).toBeGreaterThan(0);
    expect(view.preview.rows.length).toBeLessThanOrEqual(3);
    expect(view.preview.rows.map((r: unknown[]) => r[0])).toEqual(['dev-01', 'dev-03', 'dev-05']);
    // Grounding came from the database's own catalog.
    const prompt = JSON.stringify(script.callsOf('draft')[0].messages);
    expect(prompt).toContain('temperature');
    expect(prompt).toContain('battery');
    expect(view.active_stream).toBe('sensor_readings');
  });

  it('repair from a real EXPLAIN error (unknown column the local check cannot see)', async () => {
    // `r.temp` hides behind an alias, so only the database can tell the column does not exist.
    const bad = 'SELECT r.device_id, avg(r.temp) AS avg_temp FROM sensor_readings r GROUP BY r.device_id';
    script.route(route).draft(bad).revise({ sql: HOT, questions: [], assumptions: [] });
    const id = await api.createSession({ target });
    const view = await api.turn(id, { text: 'average temperature per device when above 30' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toBe(HOT);
    expect(view.attempts.failures).toHaveLength(1);
    expect(view.attempts.failures[0]).toMatchObject({ stage: 'engine', sql: bad });
    expect(view.attempts.failures[0].error).toMatch(/temp/);
    const revisePrompt = script
      .callsOf('revise')[0]
      .messages.map((m: { content: string }) => m.content)
      .join('\n');
    expect(revisePrompt).toContain(view.attempts.failures[0].error.slice(0, 40));
  });

  it('joins tables: every table is grounded, in the prompt and in the local check', async () => {
    const join =
      'SELECT c.country, sum(o.quantity * o.unit_price) AS revenue FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.country ORDER BY revenue DESC';
    script.route({ ...route, stream: 'orders' }).draft(join);
    const id = await api.createSession({ target });
    const view = await api.turn(id, { text: 'revenue per customer country' });
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.attempts.failures).toEqual([]);
    expect(view.preview.columns).toEqual(['country', 'revenue']);
    const prompt = script
      .callsOf('draft')[0]
      .messages.map((m: { content: string }) => m.content)
      .join('\n');
    expect(prompt).toMatch(/- customers\(customer_id, name, country, segment\)/);
  });

  it('refuses non-SELECT SQL before it reaches the database', async () => {
    const before = await tableCount('orders');
    script
      .route({ ...route, stream: 'orders' })
      .draft('DROP TABLE orders')
      .revise(
        { sql: 'DELETE FROM orders', questions: [], assumptions: [] },
        { sql: 'SELECT 1; DROP TABLE orders', questions: [], assumptions: [] },
      );
    const id = await api.createSession({ target });
    const view = await api.turn(id, { text: 'remove all orders' });

    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.attempts.failures).toHaveLength(3);
    for (const f of view.attempts.failures) {
      expect(f.stage).toBe('local');
      expect(f.error).toMatch(/single SELECT/i);
    }
    expect(await tableCount('orders')).toBe(before);
  });

  it('stops a query that runs past the time limit with a clear error', async () => {
    const slow =
      'SELECT count(*) AS n FROM sensor_readings a, sensor_readings b, sensor_readings c WHERE a.battery + b.battery > c.battery';
    script.route(route).draft(slow);
    const id = await api.createSession({ target });
    const view = await api.turn(id, { text: 'count every triple of readings' });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.preview).toBeNull();
    expect(view.preview_error).toBe('query exceeded the 300 ms time limit');
  });
});
