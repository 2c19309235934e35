import { TMP_PIPELINE_PREFIX, tmpPipelineId } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';
import { GOOD_SQL, REQUEST, RedisProbe, nl2sql, waitFor } from './support';

jest.setTimeout(60_000);

/**
 * The engine and the LLM misbehave: errors that pass are retried and the turn succeeds; errors
 * that last end the turn with a clear error event and status `failed`, never a hang, and leave
 * nothing behind in the engine.
 */
describe('outages of the Manager and the LLM', () => {
  const w = useWorkflowStack({
    env: {
      ENGINE_RETRIES: '2',
      ENGINE_BACKOFF_MS: '10',
      ENGINE_TIMEOUT_MS: '1000',
      LLM_MAX_RETRIES: '1',
      LLM_TIMEOUT_MS: '600',
      JOB_BACKOFF_FACTOR: '0.05',
    },
  });
  const { manager, llm } = w;
  let probe: RedisProbe;

  beforeAll(async () => {
    probe = new RedisProbe(w.stack.config);
    // The janitor sweeps once at start; let it be done, so injected failures hit the workflow.
    await waitFor('the first janitor sweep', async () => (await probe.stats()).sweeps >= 1);
  });
  afterAll(() => probe?.close());

  afterEach(async () => {
    // Nothing left behind, whatever happened: no temp pipeline, no turn still running.
    await waitFor(
      'no temp pipelines left',
      () => !manager.pipelines().some((id) => id.startsWith(TMP_PIPELINE_PREFIX)),
      10_000,
    );
    expect(await probe.store.listRunning(0)).toEqual([]);
  });

  /** Posts a turn in wait mode; the view once it stopped (or the wait timed out). */
  async function turn(id: string, body: Record<string, unknown>) {
    const res = await w.api.request('POST', `/v1/sessions/${id}/turns`, { ...body, wait: true, timeout_ms: 40_000 });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function expectFailedClearly(id: string, view: any, node: string, what: RegExp) {
    expect(view.status).toBe('failed');
    expect(view.error.node).toBe(node);
    expect(view.error.message).toMatch(what);
    expect(view.error.message).not.toContain('test-key');
    const events = await probe.eventList(id);
    const last = events.filter((e) => e.turn_id === view.turn_id).slice(-2);
    expect(last).toEqual([
      { type: 'error', turn_id: view.turn_id, node, message: view.error.message },
      { type: 'turn_end', turn_id: view.turn_id, status: 'failed' },
    ]);
  }

  describe('the Manager', () => {
    it('answers 500 twice, then recovers: retried with backoff, the turn succeeds', async () => {
      w.script.route(nl2sql()).draft(GOOD_SQL);
      const id = await w.api.createSession();
      manager.failNext(2, 500);
      const view = await turn(id, { text: REQUEST });
      expect(view.interrupt?.type).toBe('need_confirm');
      expect(view.metrics.retries).toBeGreaterThanOrEqual(2);
    });

    it('drops connections, then recovers: the turn succeeds', async () => {
      w.script.route(nl2sql()).draft(GOOD_SQL);
      const id = await w.api.createSession();
      manager.failNext(2, 'reset');
      const view = await turn(id, { text: REQUEST });
      expect(view.interrupt?.type).toBe('need_confirm');
    });

    it('answers 409 busy on the temp pipeline: retried, one create succeeds', async () => {
      const id = await w.api.createSession();
      const tmp = tmpPipelineId(id, 1, 1, w.stack.config.deploymentId);
      manager.busyNext(tmp, 2);
      w.script.route(nl2sql()).draft(GOOD_SQL);
      const view = await turn(id, { text: REQUEST });
      expect(view.interrupt?.type).toBe('need_confirm');
      expect(manager.createdCount(tmp)).toBe(1);
      const trace = (await w.api.request('GET', `/v1/sessions/${id}/trace`)).body.records;
      const validate = trace.find((r: { node: string }) => r.node === 'validate');
      expect(validate.engine).toEqual(
        expect.arrayContaining([expect.objectContaining({ route: '/pipelines', status: 201, retries: 2 })]),
      );
    });

    it('stays down: the turn ends failed with an error naming the Manager, no hang', async () => {
      const id = await w.api.createSession();
      manager.failNext(10_000, 503);
      const started = Date.now();
      const view = await turn(id, { text: REQUEST });
      manager.clearFailures();
      await expectFailedClearly(
        id,
        view,
        'init_session',
        /^init_session: the engine \(veloFlux Manager\) is unavailable: GET \/(streams|functions|capabilities\/syntax) failed: HTTP 503/,
      );
      expect(Date.now() - started).toBeLessThan(20_000);
      // Three deliveries of the job, each with its own client retries.
      const trace = (await w.api.request('GET', `/v1/sessions/${id}/trace`)).body.records;
      expect(trace.map((r: { delivery: number }) => r.delivery)).toEqual([1, 2, 3]);
      // The session is usable again once the Manager is back.
      w.script.route(nl2sql()).draft(GOOD_SQL);
      expect((await turn(id, { text: REQUEST })).interrupt?.type).toBe('need_confirm');
    });

    it('goes down after the temp pipeline was created: the turn fails and the pipeline is deleted once it is back', async () => {
      w.script.route(nl2sql()).draft(GOOD_SQL);
      const id = await w.api.createSession();
      const tmp = tmpPipelineId(id, 1, 1, w.stack.config.deploymentId);
      // Down from the moment validate's create stored the pipeline: explain and cleanup fail.
      const watch = setInterval(() => {
        if (manager.pipelines().includes(tmp)) {
          clearInterval(watch);
          manager.failNext(10_000, 'reset');
        }
      }, 1);
      try {
        const view = await turn(id, { text: REQUEST });
        await expectFailedClearly(
          id,
          view,
          'cleanup',
          /^cleanup: the engine \(veloFlux Manager\) is unavailable: DELETE \/pipelines\/:id failed: network error/,
        );
        // The failed turn's temp pipeline is still recorded, so the next turn or the janitor deletes it.
        expect(manager.pipelines()).toContain(tmp);
      } finally {
        clearInterval(watch);
        manager.clearFailures();
      }
      // Back up: the janitor's reap job (retried with backoff) deletes it; afterEach checks.
    });
  });

  describe('the LLM', () => {
    it('answers 429 with Retry-After, then recovers: the retry waits as told, the turn succeeds', async () => {
      w.script
        .route(nl2sql())
        .draft(
          { status: 429, headers: { 'retry-after': '1' }, body: '{"error":{"message":"rate limited"}}' },
          GOOD_SQL,
        );
      const id = await w.api.createSession();
      const view = await turn(id, { text: REQUEST });
      expect(view.interrupt?.type).toBe('need_confirm');
      const [first, second] = w.script.callsOf('draft');
      expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
    });

    it('answers 500, then recovers: the turn succeeds', async () => {
      w.script.route({ status: 500 }, nl2sql()).draft(GOOD_SQL);
      const id = await w.api.createSession();
      expect((await turn(id, { text: REQUEST })).interrupt?.type).toBe('need_confirm');
      expect(w.script.callsOf('router')).toHaveLength(2);
    });

    it('hangs, then recovers: the call times out, is retried, the turn succeeds', async () => {
      w.script.route(nl2sql()).draft({ hang: true }, GOOD_SQL);
      const id = await w.api.createSession();
      expect((await turn(id, { text: REQUEST })).interrupt?.type).toBe('need_confirm');
    });

    it('stays down (500): the turn ends failed with an error naming the LLM, after every retry', async () => {
      llm.handler = () => ({ status: 500 });
      const id = await w.api.createSession();
      const view = await turn(id, { text: REQUEST });
      await expectFailedClearly(
        id,
        view,
        'route_intent',
        /^route_intent: the LLM is unavailable: LLM call \(role router, model scripted-router\) failed after 2 attempt\(s\)/,
      );
      // Two HTTP attempts per delivery, three deliveries.
      expect(llm.requests).toHaveLength(6);
    });

    it('stays down (hangs): the turn ends failed with a timeout error, no hang', async () => {
      w.script.route(nl2sql());
      for (let i = 0; i < 10; i++) w.script.draft({ hang: true });
      const id = await w.api.createSession();
      const view = await turn(id, { text: REQUEST });
      await expectFailedClearly(id, view, 'draft_sql', /^draft_sql: the LLM is unavailable: .*timed out/);
    });

    it('refuses the request (400): not retried, the turn fails at once (an unrecoverable job)', async () => {
      w.script.route({ status: 400, headers: { 'x-should-retry': 'false' } });
      const id = await w.api.createSession();
      const view = await turn(id, { text: REQUEST });
      await expectFailedClearly(id, view, 'route_intent', /^route_intent: the LLM call failed: .*400/);
      const trace = (await w.api.request('GET', `/v1/sessions/${id}/trace`)).body.records;
      expect(trace.map((r: { node: string; delivery: number }) => `${r.node}#${r.delivery}`)).toEqual([
        'init_session#1',
        'link#1',
        'route_intent#1',
      ]);
    });
  });
});
