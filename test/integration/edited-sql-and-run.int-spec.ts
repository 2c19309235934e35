import { Pool } from 'pg';
import { ensurePostgresDemo } from '@nl2p/engine';
import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';

const POSTGRES_URL = process.env.POSTGRES_URL;
if (!POSTGRES_URL) console.warn('edited-sql-and-run: POSTGRES_URL is unset, so the postgres cases are skipped');
const targets = POSTGRES_URL ? ['duckdb', 'postgres'] : ['duckdb'];

const DRAFT =
  'SELECT device_id, avg(temperature) AS avg_temp FROM sensor_readings WHERE temperature > 30 GROUP BY device_id ORDER BY device_id';
const EDITED =
  'SELECT device_id, max(temperature) AS hottest FROM sensor_readings GROUP BY device_id ORDER BY device_id';
const EVERY_READING = 'SELECT * FROM sensor_readings ORDER BY ts';
const route = { intent: 'nl2sql' as const, stream: 'sensor_readings', question: null };

/**
 * SQL the person edits is checked like any draft (local check, the database's read-only guard,
 * EXPLAIN, a preview) and never handed to a model; the answer then runs beyond its preview, up to
 * the server's own row limit. Real DuckDB and PostgreSQL, real workers over BullMQ.
 */
describe.each(targets)('edited SQL and runs beyond the preview (%s)', (target) => {
  const t = useWorkflowStack({
    duckdb: target === 'duckdb',
    env: { PREVIEW_ROWS: '3', RUN_ROWS_MAX: '50', ...(POSTGRES_URL ? { POSTGRES_URL } : {}) },
  });

  beforeAll(async () => {
    if (target !== 'postgres') return;
    const pool = new Pool({ connectionString: POSTGRES_URL });
    await ensurePostgresDemo(pool);
    await pool.end();
  });

  async function drafted(): Promise<string> {
    t.script.route(route).draft(DRAFT);
    const id = await t.api.createSession({ target });
    const view = await t.api.turn(id, { text: 'average temperature per device above 30' });
    expect(view.interrupt.type).toBe('need_confirm');
    return id;
  }

  const nodesOf = async (id: string, turn: number): Promise<string[]> =>
    (await t.api.request('GET', `/v1/sessions/${id}/trace?turn=${turn}`)).body.records.map(
      (r: { node: string }) => r.node,
    );

  it('a valid edit is validated and previewed as the new answer, with no model call', async () => {
    const id = await drafted();
    const view = await t.api.turn(id, { sql: EDITED });
    expect(view).toMatchObject({ status: 'waiting', sql: EDITED, interrupt: { type: 'need_confirm' } });
    expect(view.interrupt.question).toMatch(/read-only/);
    expect(view.preview.columns).toEqual(['device_id', 'hottest']);
    expect(view.query_plan).toBeNull();
    expect(await nodesOf(id, 2)).toEqual(['prevalidate', 'validate', 'explain', 'cleanup', 'confirm']);
  });

  it('an invalid edit is told back in the check’s words, not repaired; nothing is left to run', async () => {
    const id = await drafted();
    const view = await t.api.turn(id, {
      sql: 'SELECT device_id, avg(pressure) FROM sensor_readings GROUP BY device_id',
    });
    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.interrupt.question).toMatch(
      /^(Your SQL did not pass the check|The engine refused your SQL): .*pressure/,
    );
    expect(view.interrupt.question).toMatch(/Edit it again, or ask in words\.$/);
    expect(await nodesOf(id, 2)).not.toContain('revise_sql');
    const run = await t.api.request('POST', `/v1/sessions/${id}/run`, {});
    expect(run).toMatchObject({ status: 400, body: { message: expect.stringMatching(/no SQL the engine accepted/) } });
    // A second edit from there is taken.
    expect(await t.api.turn(id, { sql: EDITED })).toMatchObject({ sql: EDITED, interrupt: { type: 'need_confirm' } });
  });

  it('a forbidden edit never reaches the database as a write', async () => {
    const id = await drafted();
    const before = await t.api.request('POST', `/v1/sessions/${id}/run`, {});
    const view = await t.api.turn(id, { sql: 'DELETE FROM sensor_readings' });
    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.interrupt.question).toMatch(/SELECT|read-only|refused/i);
    expect(await nodesOf(id, 2)).not.toContain('revise_sql');
    // The data is all there: the same answer runs to the same rows.
    expect((await t.api.turn(id, { sql: DRAFT })).sql).toBe(DRAFT);
    expect((await t.api.request('POST', `/v1/sessions/${id}/run`, {})).body.rows).toEqual(before.body.rows);
  });

  it('runs the answer beyond its preview, up to the limit asked and never past RUN_ROWS_MAX', async () => {
    const id = await drafted();
    const view = await t.api.turn(id, { sql: EVERY_READING });
    expect(view.preview).toMatchObject({ truncated: true });
    expect(view.preview.rows).toHaveLength(3);

    const ten = await t.api.request('POST', `/v1/sessions/${id}/run`, { limit: 10 });
    expect(ten).toMatchObject({ status: 200, body: { sql: EVERY_READING, limit: 10, truncated: true } });
    expect(ten.body.rows).toHaveLength(10);
    expect(ten.body.rows.slice(0, 3)).toEqual(view.preview.rows);

    const capped = await t.api.request('POST', `/v1/sessions/${id}/run`, { limit: 100_000 });
    expect(capped.body).toMatchObject({ limit: 50, truncated: true });
    expect(capped.body.rows).toHaveLength(50);
    expect((await t.api.request('POST', `/v1/sessions/${id}/run`, { limit: 0 })).status).toBe(400);
  });

  it('on veloFlux an edit is validated by the engine and becomes the pipeline request; there are no rows to run', async () => {
    t.script
      .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
      .draft("SELECT device_id, avg(temperature) AS t FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)");
    const id = await t.api.createSession({ target: 'veloflux' });
    const drafted = await t.api.turn(id, { text: 'average temperature per device every 10 seconds' });
    expect(drafted.interrupt.question).toMatch(/^The engine accepted this SQL\. Confirm to take the pipeline request/);

    const edited =
      "SELECT device_id, max(temperature) AS hottest FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 30)";
    const view = await t.api.turn(id, { sql: edited });
    expect(view).toMatchObject({ sql: edited, interrupt: { type: 'need_confirm' }, pipeline_request: { sql: edited } });
    // The engine checked it with a temporary pipeline (deleted again), as it checks any draft.
    expect(t.manager.pipelines().filter((p) => p.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    const created = t.manager.requests.filter((r) => r.method === 'POST' && r.rawPath === '/pipelines');
    expect(created.some((r) => r.body.includes("tumblingwindow('ss', 30)"))).toBe(true);

    const run = await t.api.request('POST', `/v1/sessions/${id}/run`, {});
    expect(run).toMatchObject({ status: 400, body: { message: expect.stringMatching(/no rows to run/) } });
  });
});
