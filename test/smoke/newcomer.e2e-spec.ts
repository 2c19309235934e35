import { existsSync } from 'node:fs';
import path from 'node:path';
import { GatewayClient } from '../support/client';
import { ROOT } from '@nl2p/testing';
import { StartCommandRun } from '../support/start-command';

jest.setTimeout(240_000);

const MODEL = path.join(ROOT, 'models', 'SmolLM2-135M-Instruct.Q4_1.gguf');

/**
 * Issue 14's newcomer case, on the README's start command with its defaults and nothing else
 * configured (embedded model, DuckDB demo data, plan mode, linking): a first question names no
 * table, yet only one table has a temperature and a device, so the product picks it (no
 * `need_stream`), compiles `avg(temperature) … GROUP BY device_id`, runs it, and shows rows.
 */
describe('a newcomer on the defaults', () => {
  let run: StartCommandRun | undefined;

  afterAll(async () => {
    await run?.cleanup();
  });

  it('"average temperature per device" reaches need_confirm with the right query and preview rows', async () => {
    if (!existsSync(MODEL)) {
      throw new Error(`${MODEL} is missing: scripts/bootstrap.sh fetches it (or run scripts/fetch-model.sh)`);
    }
    run = await StartCommandRun.start({ LOCAL_THREADS: '1' });
    const api = new GatewayClient(run.url);
    const id = await api.createSession();
    const res = await api.request('POST', `/v1/sessions/${id}/turns`, {
      text: 'average temperature per device',
      wait: true,
      timeout_ms: 120_000,
    });
    expect(res.status).toBe(200);
    const view = res.body;

    expect({ status: view.status, interrupt: view.interrupt?.type, error: view.error }).toEqual({
      status: 'waiting',
      interrupt: 'need_confirm',
      error: null,
    });
    expect(view.active_stream).toBe('sensor_readings');
    expect(view.sql).toMatch(/avg\(temperature\)/i);
    expect(view.sql).toMatch(/GROUP BY device_id/i);
    expect(view.preview_error).toBeNull();
    // One row per device of the demo data.
    expect(view.preview.rows).toHaveLength(5);
    // The first turn got there: it never stopped to ask which table (need_stream ends a turn).
    expect(view.turn_id).toBe(1);

    expect(await run.stop()).toEqual({ code: 0, gatewayUp: false, redisUp: false });
  });
});
