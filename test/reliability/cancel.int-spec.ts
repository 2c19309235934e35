import { TMP_PIPELINE_PREFIX, tmpPipelineId } from '@nl2p/envelope';
import { readSse } from '../support/sse';
import { useWorkflowStack } from '../support/workflow-stack';
import { GOOD_SQL, REQUEST, RedisProbe, nl2sql, sleep, waitFor } from './support';

jest.setTimeout(40_000);

describe('cancelling the running turn', () => {
  const w = useWorkflowStack();
  const { manager } = w;
  let probe: RedisProbe;

  beforeAll(() => {
    probe = new RedisProbe(w.stack.config);
  });
  afterAll(() => probe?.close());

  afterEach(async () => {
    await waitFor(
      'no temp pipelines left',
      () => !manager.pipelines().some((id) => id.startsWith(TMP_PIPELINE_PREFIX)),
      10_000,
    );
    expect(await probe.store.listRunning(0)).toEqual([]);
  });

  const cancel = (id: string) => w.api.request('POST', `/v1/sessions/${id}/turns/current/cancel`);
  const events = (id: string) => probe.eventList(id);

  it('mid-draft: the LLM call stops, the session is cancelled at once, SSE sees it, a new turn works', async () => {
    // A slow stream: about 20 words, 250 ms apart.
    w.script.route(nl2sql()).draft({ content: GOOD_SQL, chunkDelayMs: 250 });
    const id = await w.api.createSession();
    expect((await w.api.request('POST', `/v1/sessions/${id}/turns`, { text: REQUEST })).status).toBe(202);
    const sse = readSse(`${w.stack.gatewayUrl}/v1/sessions/${id}/events?turn=1`, { timeoutMs: 15_000 });
    await waitFor('a draft delta', async () => (await events(id)).some((e) => e.type === 'draft_delta'));

    const cancelledAt = Date.now();
    const res = await cancel(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', turn_id: 1, error: null });

    // The client following the turn sees it end as cancelled.
    const { events: seen } = await sse;
    expect(seen.filter((e) => e.type === 'turn_end').map((e) => e.data)).toEqual([
      { type: 'turn_end', turn_id: 1, status: 'cancelled' },
    ]);
    expect(seen[seen.length - 1]).toMatchObject({ type: 'end', data: { turn_id: 1, status: 'cancelled' } });

    // The drafting node stopped at its boundary (its streamed call was aborted), long before the
    // stream would have ended, and the turn went no further.
    await waitFor('the draft node to stop', async () =>
      (await events(id)).some((e) => e.type === 'node_end' && e.node === 'draft_sql' && !e.ok),
    );
    expect(Date.now() - cancelledAt).toBeLessThan(2_500);
    await sleep(300);
    const nodes = (await events(id)).filter((e) => e.type === 'node_start').map((e) => (e as { node: string }).node);
    expect(nodes).toEqual(['init_session', 'link', 'route_intent', 'ensure_active_stream', 'draft_sql']);
    const view = (await w.api.request('GET', `/v1/sessions/${id}`)).body;
    expect(view).toMatchObject({ status: 'cancelled', sql: null });

    // Nothing runs any more.
    const again = await cancel(id);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('no turn is running');

    // A new turn starts right away and works.
    w.script.route(nl2sql()).draft(GOOD_SQL);
    const next = await w.api.turn(id, { text: REQUEST });
    expect(next).toMatchObject({ status: 'waiting', turn_id: 2, sql: GOOD_SQL });
    expect(next.interrupt.type).toBe('need_confirm');
  });

  it('mid-validate: the temp pipeline being created is deleted once the create returns', async () => {
    w.script.route(nl2sql()).draft(() => {
      manager.delayMs = 1_000; // the create (and everything after it) is slow
      return GOOD_SQL;
    });
    const id = await w.api.createSession();
    const tmp = tmpPipelineId(id, 1, 1, w.stack.config.deploymentId);
    expect((await w.api.request('POST', `/v1/sessions/${id}/turns`, { text: REQUEST })).status).toBe(202);
    // validate checkpointed the temp id and its create is in flight.
    await waitFor('the create to be in flight', () =>
      manager.requests.some((r) => r.method === 'POST' && r.body.includes(tmp)),
    );
    expect((await probe.store.get(id))!.validation.tmp_pipeline_id).toBe(tmp);

    expect((await cancel(id)).body.status).toBe('cancelled');
    await waitFor('the create to land', () => manager.createdCount(tmp) === 1, 5_000);
    await waitFor('the temp pipeline to be deleted', () => !manager.pipelines().includes(tmp), 10_000);
    manager.delayMs = 0;
    const after = (await probe.store.get(id))!;
    expect(after.status).toBe('cancelled');
    expect(after.node).toBe('validate');

    w.script.route(nl2sql()).draft(GOOD_SQL);
    expect((await w.api.turn(id, { text: REQUEST })).interrupt.type).toBe('need_confirm');
  });

  it('404 without the session, 409 when nothing runs', async () => {
    expect((await cancel('0123456789abcdef0123456789abcdef')).status).toBe(404);
    expect((await cancel('not-a-session')).status).toBe(404);
    const id = await w.api.createSession();
    const res = await cancel(id);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('status idle');
  });
});
