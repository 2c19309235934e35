import { DuckDBInstance } from '@duckdb/node-api';
import { useWorkflowStack } from '../support/workflow-stack';

/**
 * Requests to change data, through the gateway and the whole stack on the defaults people run
 * (`DRAFT_MODE=plan` with linking): the answer says the product only reads and offers the rows
 * instead, and neither the model nor an engine is called — the turn ends in the gateway.
 */
const READ_ONLY = 'I only read data; I can show you the rows that';

describe('write requests get a read-only answer', () => {
  const t = useWorkflowStack({ duckdb: true, env: { DRAFT_MODE: 'plan', LINKING: 'true', PLAN_TRUST_LINKS: 'true' } });

  async function ordersCount(): Promise<number> {
    const db = await DuckDBInstance.create(t.stack.config.duckdb.path, { access_mode: 'READ_ONLY' });
    try {
      const conn = await db.connect();
      const rows = (await conn.runAndReadAll('SELECT count(*)::INTEGER AS n FROM orders')).getRowObjects();
      conn.closeSync();
      return Number(rows[0].n);
    } finally {
      db.closeSync();
    }
  }

  /** The workflow nodes that ran in a turn (none when the gateway answered it alone). */
  const nodesRun = async (id: string, turn: number): Promise<string[]> =>
    (await t.api.request('GET', `/v1/sessions/${id}/trace?turn=${turn}`)).body.records.map(
      (r: { node: string }) => r.node,
    );

  it.each([
    ['duckdb', 'DROP TABLE orders', 'are in orders — ask "show orders".'],
    ['duckdb', 'delete all cancelled orders', 'it would delete — ask "show all cancelled orders".'],
    ['duckdb', 'update the price of product 5 to 10', 'it would change — ask "show the price of product 5".'],
    ['duckdb', 'insert a row into orders', 'are already in orders — ask "show orders".'],
    ['veloflux', 'DROP STREAM sensor_stream', 'are in sensor_stream — ask "show sensor_stream".'],
  ])('%s: "%s"', async (target, text, rest) => {
    const before = target === 'duckdb' ? await ordersCount() : null;
    const id = await t.api.createSession({ target });
    const engineRequestsBefore = t.manager.requests.length;

    const view = await t.api.turn(id, { text });

    expect(view.status).toBe('idle');
    expect(view.error).toBeNull();
    expect(view.interrupt).toBeNull();
    expect(view.answer).toEqual({ kind: 'message', text: `${READ_ONLY} ${rest}` });
    expect(view.sql ?? null).toBeNull();
    // No model and no engine saw the request.
    expect(t.llm.requests).toHaveLength(0);
    expect(view.metrics.llm_calls).toBe(0);
    expect(view.metrics.engine_calls).toBe(0);
    expect(await nodesRun(id, 1)).toEqual([]);
    expect(t.manager.requests.slice(engineRequestsBefore)).toEqual([]);
    if (before !== null) expect(await ordersCount()).toBe(before);
  });

  it('a read request still reaches the engine, and a write request leaves its draft to confirm', async () => {
    const id = await t.api.createSession({ target: 'duckdb' });
    const read = await t.api.turn(id, { text: 'average temperature per device' });
    expect(read.interrupt?.type).toBe('need_confirm');
    expect(read.preview.rows.length).toBeGreaterThan(0);
    expect(await nodesRun(id, 1)).toContain('validate');

    const write = await t.api.turn(id, { text: 'delete all readings' });
    expect(write.answer?.text).toContain(READ_ONLY);
    expect(await nodesRun(id, 2)).toEqual([]);
    expect(write.interrupt?.type).toBe('need_confirm');
    expect(write.sql).toBe(read.sql);
    expect((await t.api.turn(id, { confirm: true })).status).toBe('idle');
  });
});
