import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { startStack, type Stack } from '../support/stack';

/**
 * Plan mode through the whole workflow (ARCHITECTURE §7a): linking before any LLM call, the
 * model choosing a slot plan, each target's compiler, and the fallbacks of `auto`. DuckDB is
 * real (demo data); veloFlux is the fake Manager; the LLM is scripted at its HTTP boundary.
 */
describe('plan mode, through the whole workflow', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let script: LlmScript;
  const stacks: Stack[] = [];
  let urls: { managerUrl: string; llmUrl: string };

  async function gateway(env: Record<string, string>): Promise<GatewayClient> {
    const stack = await startStack({ ...urls, duckdb: true, env: { TARGET: 'duckdb', LINKING: 'true', ...env } });
    stacks.push(stack);
    return new GatewayClient(stack.gatewayUrl);
  }

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    urls = { managerUrl, llmUrl };
  });

  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.close()));
    await Promise.all([manager.stop(), llm.stop()]);
  });

  beforeEach(() => {
    llm.reset();
    script = new LlmScript(llm);
  });

  describe('plan mode trusting conclusive links (the embedded model default)', () => {
    let api: GatewayClient;
    beforeAll(async () => {
      api = await gateway({ DRAFT_MODE: 'plan', PLAN_TRUST_LINKS: 'true' });
    });

    it('the newcomer case: picks the one table that can answer, compiles avg … GROUP BY, runs it — no LLM call', async () => {
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'average temperature per device' });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.active_stream).toBe('sensor_readings');
      expect(view.sql).toMatch(/avg\(temperature\)/i);
      expect(view.sql).toMatch(/GROUP BY device_id/i);
      expect(view.draft_mode).toBe('plan');
      expect(view.query_plan).toMatchObject({ source: 'sensor_readings' });
      expect(view.preview.rows.length).toBeGreaterThan(0);
      expect(view.preview_error).toBeNull();
      expect(script.calls).toEqual([]);
    });

    it('asks, naming the real columns, when a content word links to nothing the data has', async () => {
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'average wind speed per device' });

      expect(view.interrupt.type).toBe('need_clarification');
      expect(view.interrupt.question).toMatch(/wind/);
      expect(view.interrupt.question).toMatch(/temperature/);
      expect(view.sql).toBeNull();
      expect(script.calls).toEqual([]);
    });

    it('lists tables without the router model when the request says so', async () => {
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'which tables are there?' });

      expect(view.answer.kind).toBe('streams');
      expect(view.answer.text).toMatch(/sensor_readings/);
      expect(script.calls).toEqual([]);
    });
  });

  describe('plan mode asking the model', () => {
    let api: GatewayClient;
    beforeAll(async () => {
      api = await gateway({ DRAFT_MODE: 'plan', PLAN_TRUST_LINKS: 'false' });
    });

    it('the model chooses among enumerated slots; the plan compiles to the SQL that ran', async () => {
      script.plan({
        table: 'orders',
        columns: [],
        aggregates: [{ fn: 'count', of: '*', distinct: false }],
        filters: [],
        group_by: ['status'],
        time: null,
        order: { by: 'count(*)', direction: 'desc' },
        limit: null,
      });
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'number of orders per status' });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toMatch(/count\(\*\)/i);
      expect(view.sql).toMatch(/GROUP BY status/i);
      expect(view.sql).toMatch(/ORDER BY .* DESC/i);
      expect(view.preview.rows.length).toBeGreaterThan(1);
      // One model call, and it was shown what linking found as a hint, with the real values.
      const [call] = script.callsOf('plan');
      expect(script.calls).toHaveLength(1);
      const prompt = call.messages.map((m) => m.content).join('\n');
      expect(prompt).toMatch(/status values: .*cancelled/);
    });

    it('a plan the catalog check or the compiler refuses is repaired in plan mode from the error', async () => {
      // The schema cannot express an unknown column, but it can express sum over a text column:
      // the plan check refuses it before any SQL exists, and the revision is asked again.
      const bad = {
        table: 'orders',
        columns: [],
        aggregates: [{ fn: 'sum', of: 'status', distinct: false }],
        filters: [],
        group_by: [],
        time: null,
        order: null,
        limit: null,
      };
      script.plan(
        { ...bad },
        { ...bad, aggregates: [{ fn: 'sum', of: 'quantity', distinct: false }] },
        { ...bad, aggregates: [{ fn: 'sum', of: 'quantity', distinct: false }] },
      );
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'total quantity of all orders' });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toMatch(/sum\(quantity\)/i);
      expect(script.callsOf('plan').length).toBeGreaterThanOrEqual(1);
    });
  });

  describe('no condition the request did not say (issue 23)', () => {
    // The container tier's case: "quantity per status" drafted by the model with a filter no
    // word of the request supports; it returned no rows and was offered for confirmation.
    it("plan mode: the model's quantity IS NULL is left out, said as an assumption, and the preview has rows", async () => {
      const api = await gateway({ DRAFT_MODE: 'plan', PLAN_TRUST_LINKS: 'false' });
      script.plan({
        table: 'orders',
        columns: ['status'],
        aggregates: [{ fn: 'sum', of: 'quantity', distinct: false }],
        filters: [{ column: 'quantity', op: 'is_null', value: null }],
        group_by: ['status'],
        time: null,
        order: null,
        limit: null,
      });
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'quantity per status' });

      expect(script.callsOf('plan')).toHaveLength(1);
      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toMatch(/sum\(quantity\)/i);
      expect(view.sql).not.toMatch(/IS NULL/i);
      expect(view.sql).not.toMatch(/WHERE/i);
      expect(view.query_plan).toMatchObject({ where: null });
      expect(view.assumptions).toContain("I left out 'quantity is null': nothing in the request asks for it.");
      expect(view.preview.rows.length).toBeGreaterThan(1);
    });

    it("free SQL mode: WHERE quantity IS NULL is cut out of the model's SQL, said as an assumption", async () => {
      const api = await gateway({ DRAFT_MODE: 'sql' });
      script.draft('SELECT status, SUM(quantity) AS total FROM orders WHERE quantity IS NULL GROUP BY status');
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'quantity per status' });

      expect(script.callsOf('draft')).toHaveLength(1);
      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toBe('SELECT status, SUM(quantity) AS total FROM orders GROUP BY status');
      expect(view.assumptions).toContain("I left out 'quantity IS NULL': nothing in the request asks for it.");
      expect(view.preview.rows.length).toBeGreaterThan(1);
    });
  });

  describe('auto mode (the default with a server)', () => {
    let api: GatewayClient;
    beforeAll(async () => {
      api = await gateway({ DRAFT_MODE: 'auto' });
    });

    it('falls back to free SQL when the model marks the request as beyond the plan language', async () => {
      const sql = 'SELECT device_id, stddev_samp(temperature) AS spread FROM sensor_readings GROUP BY device_id';
      script
        .plan({
          table: 'sensor_readings',
          columns: [],
          aggregates: [],
          filters: [],
          group_by: [],
          time: null,
          order: null,
          limit: null,
          beyond_plan: true,
          question: null,
        })
        .draft(sql);
      const id = await api.createSession({ target: 'duckdb' });
      const view = await api.turn(id, { text: 'the standard deviation of temperature per device' });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toBe(sql);
      expect(view.draft_mode).toBe('sql');
      expect(view.query_plan).toBeNull();
      expect(script.calls.map((c) => c.kind)).toEqual(['plan', 'draft']);
    });
  });

  describe('on veloFlux', () => {
    let api: GatewayClient;
    beforeAll(async () => {
      api = await gateway({ TARGET: 'veloflux', DRAFT_MODE: 'plan', PLAN_TRUST_LINKS: 'true' });
    });

    it('compiles a window with the condition applied to each row inside the aggregates, and says so', async () => {
      const id = await api.createSession({ target: 'veloflux' });
      const view = await api.turn(id, {
        text: 'average temperature per device every 10 seconds, only when the temperature is above 30',
        stream: 'sensor_stream',
      });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toMatch(/tumblingwindow\('ss', 10\)/);
      // A WHERE here would be applied after aggregating (recorded and live engine), so the
      // condition goes into the aggregate and the windows with no such row are dropped.
      expect(view.sql).toMatch(/avg\(CASE WHEN temperature > 30 THEN temperature END\)/);
      expect(view.sql).toMatch(/HAVING count\(CASE WHEN temperature > 30 THEN 1 END\) > 0$/);
      expect(view.sql).not.toMatch(/WHERE/);
      expect(view.assumptions.join(' ')).toMatch(/applied to each row inside the aggregates/);
      expect(view.explain).toMatch(
        /Aggregation_\d+ +\| aggregates=\[avg\(CASE WHEN temperature > 30 THEN temperature END\)/,
      );
      expect(view.pipeline_request).toMatchObject({ sql: view.sql });
      expect(manager.pipelines().filter((p) => p.startsWith('__nl2pipeline_tmp__'))).toEqual([]);
    });

    it('reads a bare "only above 30" as the aggregated measure, row by row, and says how it read it', async () => {
      const id = await api.createSession({ target: 'veloflux' });
      const view = await api.turn(id, {
        text: 'average temperature per device every 10 seconds, only above 30',
        stream: 'sensor_stream',
      });

      expect(view.interrupt.type).toBe('need_confirm');
      expect(view.sql).toMatch(/avg\(CASE WHEN temperature > 30 THEN temperature END\)/);
      expect(view.sql).toMatch(/GROUP BY device_id, tumblingwindow\('ss', 10\)/);
      expect(view.assumptions).toContain('"above 30" is read as temperature > 30 for each row, before aggregating');
      // Taken from the linker without asking the model.
      expect(llm.requests).toHaveLength(0);
    });
  });
});
