import { ManagerClient } from '@nl2p/engine';
import { randomUUID } from 'node:crypto';
import { tmpPipelineId } from '@nl2p/envelope';
import { scrape, sumOf, type Sample } from '../support/prometheus';
import { RedisProbe } from '../reliability/support';
import { useWorkflowStack } from '../support/workflow-stack';

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REQUEST = 'average temperature per device every 10 seconds, only above 30';
const SERVICES = ['validator', 'router-llm', 'sql-drafter', 'explainer', 'janitor'];
/** An LLM outage answer the client retries at once (OpenAI's `retry-after-ms`). */
const LLM_DOWN = { status: 500, headers: { 'retry-after-ms': '5' } };

async function waitFor(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Every service's `/metrics` (the gateway on its port, each worker on its probe port) is scraped
 * before and after a conversation with an LLM outage, an engine 5xx and a janitor sweep; the
 * series the dashboard and the autoscaler read must have moved by what happened. In this process
 * the six services share one registry, so each endpoint serves the same series (in a deployment
 * each process has its own, labelled `service`, see setServiceLabel).
 */
describe('Prometheus metrics on every service (real Redis, BullMQ, HTTP)', () => {
  const t = useWorkflowStack({ env: { METRICS_PORT: '0', JOB_BACKOFF_FACTOR: '0.01', JANITOR_SWEEP_EVERY_MS: '300' } });
  const { manager } = t;

  const endpoints = () => ({
    gateway: `${t.stack.gatewayUrl}/metrics`,
    ...Object.fromEntries(Object.entries(t.stack.probeUrls ?? {}).map(([s, url]) => [s, `${url}/metrics`])),
  });

  it('serves /metrics, /health and /health/live on every worker and the gateway', async () => {
    expect(Object.keys(t.stack.probeUrls ?? {}).sort()).toEqual([...SERVICES].sort());
    for (const [service, url] of Object.entries(t.stack.probeUrls ?? {})) {
      const ready = await fetch(`${url}/health`);
      expect({ service, status: ready.status }).toEqual({ service, status: 200 });
      expect(await ready.json()).toEqual({ status: 'ok', workers: 1 });
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      expect((await fetch(`${url}/nope`)).status).toBe(404);
    }
    expect((await fetch(`${t.stack.gatewayUrl}/health`)).status).toBe(200);
    expect((await fetch(`${t.stack.gatewayUrl}/health/live`)).status).toBe(200);
    for (const [service, url] of Object.entries(endpoints())) {
      const res = await fetch(url);
      expect({ service, status: res.status }).toEqual({ service, status: 200 });
      expect(res.headers.get('content-type')).toContain('text/plain');
    }
  });

  it('the series move after a conversation: nodes, retries, turns, LLM, engine, catalog, temp pipelines, queues', async () => {
    const before: Record<string, Sample[]> = {};
    for (const [service, url] of Object.entries(endpoints())) before[service] = await scrape(url);

    // The router's first delivery meets an outage that outlasts the client's retries (3 attempts),
    // so BullMQ delivers the job again; there the call answers on its third attempt (2 retries).
    const down = Array.from({ length: 5 }, () => LLM_DOWN);
    t.script.route(...down, { intent: 'nl2sql', stream: 'sensor_stream', question: null });
    t.script.draft(GOOD_SQL);
    // One engine 5xx, retried inside the call.
    manager.failNext(1, 503);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });
    expect(view.interrupt?.type).toBe('need_confirm');
    expect((await t.api.turn(id, { confirm: true })).status).toBe('idle');

    // A temp pipeline nobody owns (its session never existed): the janitor's next sweep deletes it.
    const orphan = tmpPipelineId(randomUUID().replaceAll('-', ''), 1, 1, t.stack.config.deploymentId);
    await new ManagerClient({ baseUrl: manager.baseUrl, backoffMs: 1 }).createPipeline({
      id: orphan,
      sql: GOOD_SQL,
      sinks: [{ type: 'nop' }],
    });
    await waitFor('the sweep of the orphan', async () => !manager.pipelines().includes(orphan));
    // What each sweep deleted, by name: a count that is off says which temp name it was.
    const probe = new RedisProbe(t.stack.config);
    const sweeps = (await probe.redis.lrange(probe.keys.janitorSweeps(), 0, -1)).map(
      (r) => JSON.parse(r) as { tmp_deleted: { id: string; reason: string }[] },
    );
    probe.close();
    expect(sweeps.flatMap((s) => s.tmp_deleted)).toEqual([{ id: orphan, reason: 'unowned' }]);

    for (const [service, url] of Object.entries(endpoints())) {
      const after = await scrape(url);
      const moved = (name: string, labels: Record<string, string> = {}) =>
        sumOf(after, name, labels) - sumOf(before[service], name, labels);
      const summary = {
        service,
        routeAdvanced: moved('nl2p_node_runs_total', { node: 'route_intent', outcome: 'advanced' }),
        routeRetried: moved('nl2p_node_runs_total', { node: 'route_intent', outcome: 'retried' }),
        routeRetriesLlm: moved('nl2p_node_retries_total', { node: 'route_intent', kind: 'llm' }),
        validateTimed: moved('nl2p_node_duration_seconds_count', { node: 'validate', outcome: 'advanced' }) > 0,
        turnsWaiting: moved('nl2p_turns_total', { status: 'waiting' }),
        turnsIdle: moved('nl2p_turns_total', { status: 'idle' }),
        routerCalls: moved('nl2p_llm_calls_total', { role: 'router', model: 'scripted-router' }),
        llmRetries: moved('nl2p_llm_retries_total', { role: 'router' }),
        draftCalls:
          moved('nl2p_llm_calls_total', { model: 'scripted-preview' }) +
          moved('nl2p_llm_calls_total', { model: 'scripted-reasoning' }),
        inputTokens: moved('nl2p_llm_tokens_total', { type: 'input' }) > 0,
        outputTokens: moved('nl2p_llm_tokens_total', { type: 'output' }) > 0,
        llmTimed: moved('nl2p_llm_call_duration_seconds_count', { role: 'router' }) > 0,
        creates: moved('nl2p_engine_calls_total', { method: 'POST', route: '/pipelines', status: '201' }),
        engineRetries: moved('nl2p_engine_retries_total') >= 1,
        engineTimed: moved('nl2p_engine_call_duration_seconds_count') > 0,
        catalogLookups: moved('nl2p_catalog_cache_lookups_total') > 0,
        tmpCreated: moved('nl2p_tmp_pipelines_created_total'),
        tmpDeletedAtLeast2: moved('nl2p_tmp_pipelines_deleted_total') >= 2,
        swept: moved('nl2p_tmp_pipelines_swept_total', { reason: 'unowned' }),
        queues: [...new Set(after.filter((s) => s.name === 'nl2p_queue_jobs').map((s) => s.labels.queue))].sort(),
        sessionIdInLabels: after.some((s) => Object.values(s.labels).some((v) => v.includes(id))),
      };
      expect(summary).toEqual({
        service,
        routeAdvanced: 1,
        routeRetried: 1,
        routeRetriesLlm: 1,
        validateTimed: true,
        turnsWaiting: 1,
        turnsIdle: 1,
        routerCalls: 1,
        llmRetries: 2,
        draftCalls: 1,
        inputTokens: true,
        outputTokens: true,
        llmTimed: true,
        creates: 1,
        engineRetries: true,
        engineTimed: true,
        catalogLookups: true,
        tmpCreated: 1,
        tmpDeletedAtLeast2: true,
        swept: 1,
        queues: ['explainer', 'janitor', 'router-llm', 'sql-drafter', 'validator'],
        sessionIdInLabels: false,
      });
    }
  });
});
