import { ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { StartCommandRun } from '../support/start-command';

jest.setTimeout(180_000);

/**
 * The README's start command, exactly as a person runs it (`npm start` = scripts/start.sh), on
 * its embedded defaults: it starts its own Redis, all six services and the DuckDB target with
 * the demo data. Only the LLM is the scripted one. Then one conversation, then a clean stop.
 */
describe('the start command', () => {
  const llm = new ScriptedLlm();
  let run: StartCommandRun | undefined;

  afterAll(async () => {
    await run?.cleanup();
    await llm.stop();
  });

  it('starts everything, serves a conversation against DuckDB, and stops cleanly', async () => {
    const llmUrl = await llm.start();
    // The scripted model answers the router and a free-SQL draft.
    run = await StartCommandRun.start({
      LLM_BASE_URL: llmUrl,
      LLM_MODEL: 'scripted',
      DRAFT_MODE: 'sql',
      LINKING: 'false',
    });
    const output = run.output;
    expect(output).toContain('nl2pipeline is running.');
    expect(output).toContain(run.url);
    expect(output).toMatch(/target:\s+duckdb/);
    expect(output).toMatch(/AUTH IS OFF/);
    // Every worker's metrics are served and listed: the node series exist under npm start too.
    const workerMetrics = [
      ...output.matchAll(/(validator|router-llm|sql-drafter|explainer|janitor) (http:\S+\/metrics)/g),
    ];
    expect(workerMetrics.map((m) => m[1]).sort()).toEqual([
      'explainer',
      'janitor',
      'router-llm',
      'sql-drafter',
      'validator',
    ]);

    new LlmScript(llm)
      .route({ intent: 'nl2sql', stream: 'sensor_readings', question: null })
      .draft(
        'SELECT device_id, max(temperature) AS max_temp FROM sensor_readings GROUP BY device_id ORDER BY device_id',
      );
    const api = new GatewayClient(run.url);
    const id = await api.createSession();
    const view = await api.turn(id, { text: 'hottest reading per device' });
    expect(view.target).toBe('duckdb');
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.preview.columns).toEqual(['device_id', 'max_temp']);
    expect(view.preview.rows).toHaveLength(5);
    // The validator and explainer counted the turn's nodes; the turn's end is counted by status.
    const scraped = await Promise.all(workerMetrics.map(async (m) => (await fetch(m[2])).text()));
    expect(scraped.join('\n')).toMatch(/nl2p_node_runs_total\{[^}]*node="validate"[^}]*\} [1-9]/);
    expect(scraped.join('\n')).toMatch(/nl2p_turns_total\{[^}]*status="waiting"[^}]*\} [1-9]/);

    // A clean stop: exit 0, the gateway gone, and the Redis the command started gone too.
    expect(await run.stop()).toEqual({ code: 0, gatewayUp: false, redisUp: false });
  });
});
