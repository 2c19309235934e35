import { ConsoleLogger } from '@nestjs/common';
import { leaveDryRun as leaveDryRunOn } from '../support/dry-run-leftovers';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue, Worker } from 'bullmq';
import { loadConfig } from '@nl2p/config';
import { TMP_PIPELINE_PREFIX, dryRunIdOf, jobId, tmpPipelineId, type Envelope } from '@nl2p/envelope';
import { ManagerClient } from '@nl2p/engine';
import { QueueName } from '@nl2p/graph';
import { Engines, Grounding, LLM_CLIENT, drafterNodes, validatorNodes } from '@nl2p/nodes';
import { workerTiming, type NodeHandlers, type NodeJobData } from '@nl2p/workflow-runtime';
import type { LlmClient } from '@nl2p/llm';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { ValidatorModule } from '../../apps/validator/src/validator.module';
import { ValidatorWorker } from '../../apps/validator/src/validator.worker';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { deletePrefix, startStack, testEnv, type Stack } from '../support/stack';
import { GOOD_SQL, REQUEST, RedisProbe, nl2sql, waitFor } from './support';
import { delivery, useWorkerCore } from '../support/worker-core';

jest.setTimeout(40_000);

/** Runs the real handler, then dies as a SIGKILLed worker would before its checkpoint. */
function crashingAfter(handlers: NodeHandlers): NodeHandlers {
  return Object.fromEntries(
    Object.entries(handlers).map(([node, handler]) => [
      node,
      async (e: Envelope, ctx: Parameters<NonNullable<NodeHandlers['validate']>>[1]) => {
        await handler(e, ctx);
        throw new Error('worker killed before its checkpoint');
      },
    ]),
  );
}

/**
 * At-least-once delivery made safe: the node runner with the real handlers, engine and Redis,
 * driven job by job (no consumers run here), so a crash can be placed exactly.
 */
describe('re-delivered jobs', () => {
  const core = useWorkerCore();
  let validator: NodeHandlers;
  let drafter: NodeHandlers;
  let script: LlmScript;

  beforeAll(() => {
    validator = validatorNodes({ engines: core.ctx.get(Engines), grounding: core.ctx.get(Grounding) });
    drafter = drafterNodes({ llm: core.ctx.get<LlmClient>(LLM_CLIENT), grounding: core.ctx.get(Grounding) });
  });

  beforeEach(() => {
    script = new LlmScript(core.llm);
  });

  const leaveDryRun = (id: string) => leaveDryRunOn(new ManagerClient({ baseUrl: core.manager.baseUrl }), id);

  const queued = (queue: QueueName, id: string) =>
    core.ctx.get<Queue>(getQueueToken(queue), { strict: false }).getJob(id);

  it('validate re-run after a crash between create and checkpoint: one create, the pipeline reused, attempt unchanged', async () => {
    const at = await core.probe.session({ node: 'validate', status: 'running', attempt: 1 });
    const tmp = tmpPipelineId(at.session_id, 1, 1);

    // First delivery: the id is checkpointed, the pipeline created, then the worker dies.
    await expect(core.runner.run(delivery(at, 0, 'envelope'), crashingAfter(validator), 'validator')).rejects.toThrow(
      'worker killed',
    );
    const mid = (await core.probe.store.get(at.session_id))!;
    expect(mid).toMatchObject({ node: 'validate', status: 'running', version: at.version + 1 });
    expect(mid.validation.tmp_pipeline_id).toBe(tmp);
    expect(core.manager.pipelines()).toEqual([tmp]);

    // Re-delivery of the same job (its envelope is older than the checkpoint): resumes, reuses.
    await expect(core.runner.run(delivery(at, 1, 'envelope'), validator, 'validator')).resolves.toBe('advanced');
    const after = (await core.probe.store.get(at.session_id))!;
    expect(after).toMatchObject({ node: 'explain', status: 'running' });
    expect(after.validation).toMatchObject({ ok: true, attempt: 1, tmp_pipeline_id: tmp, failures: [] });
    expect(core.manager.createCount(tmp)).toBe(2);
    expect(core.manager.createdCount(tmp)).toBe(1);
    expect(core.manager.pipelines()).toEqual([tmp]);
    expect(await queued(QueueName.Explainer, jobId(at.session_id, 1, 'explain', 1))).toBeDefined();

    // Yet another delivery, after the node advanced: dropped, nothing created or deleted.
    await expect(core.runner.run(delivery(at, 2, 'envelope'), validator, 'validator')).resolves.toBe('stale');
    expect(core.manager.createCount(tmp)).toBe(2);
    expect(core.manager.pipelines()).toEqual([tmp]);
    expect((await core.probe.store.get(at.session_id))!.version).toBe(after.version);
  });

  it('a validate job delivered after its turn was cancelled deletes the pipeline and the dry run it may have made', async () => {
    const at = await core.probe.session({ node: 'validate', status: 'running', attempt: 1 });
    const tmp = tmpPipelineId(at.session_id, 1, 1);
    await expect(core.runner.run(delivery(at, 0, 'envelope'), crashingAfter(validator), 'validator')).rejects.toThrow(
      'worker killed',
    );
    expect(core.manager.pipelines()).toEqual([tmp]);
    const mid = (await core.probe.store.get(at.session_id))!;
    // What a worker killed inside the dry run leaves: its input stream and the pipeline reading it.
    const dry = dryRunIdOf(mid);
    await leaveDryRun(dry);
    await core.probe.store.compareAndSet(mid.version, { ...mid, status: 'cancelled' });

    await expect(core.runner.run(delivery(at, 1, 'envelope'), validator, 'validator')).resolves.toBe('stale');
    expect(core.manager.pipelines()).toEqual([]);
    expect(core.manager.streamNames().filter((n) => n.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    expect(core.manager.createCount(tmp)).toBe(1);
  });

  it('draft re-run after a crash, and a duplicate delivery after it advanced: the attempt counts once', async () => {
    script.draft(GOOD_SQL, GOOD_SQL);
    const at = await core.probe.session({ node: 'draft_sql', status: 'running', attempt: 0 });
    await expect(core.runner.run(delivery(at, 0, 'envelope'), crashingAfter(drafter), 'sql-drafter')).rejects.toThrow(
      'worker killed',
    );
    expect((await core.probe.store.get(at.session_id))!.validation.attempt).toBe(0);

    await expect(core.runner.run(delivery(at, 1, 'envelope'), drafter, 'sql-drafter')).resolves.toBe('advanced');
    const after = (await core.probe.store.get(at.session_id))!;
    expect(after).toMatchObject({ node: 'prevalidate', draft: expect.objectContaining({ sql: GOOD_SQL }) });
    expect(after.validation.attempt).toBe(1);

    await expect(core.runner.run(delivery(at, 2, 'envelope'), drafter, 'sql-drafter')).resolves.toBe('stale');
    expect((await core.probe.store.get(at.session_id))!.validation.attempt).toBe(1);
    expect(script.callsOf('draft')).toHaveLength(2);
  });

  it('the reading route (link → compile_plan on the validator): a stalled job re-delivered is dropped and hands the checkpoint on once; a duplicate compile_plan counts its attempt once', async () => {
    const trusting = validatorNodes({
      engines: core.ctx.get(Engines),
      grounding: core.ctx.get(Grounding),
      reading: { linking: true, mode: 'plan', trustLinks: true },
    });
    const at = await core.probe.session({ node: 'init_session', status: 'running', attempt: 0 });
    // The worker running the turn's first job dies once ensure_active_stream has checkpointed the
    // turn onto compile_plan (which it would have run on in the same job) and queued it.
    const dying: NodeHandlers = { ...trusting };
    delete dying.compile_plan;
    await expect(core.runner.run(delivery(at), dying, 'validator')).resolves.toBe('advanced');
    const mid = (await core.probe.store.get(at.session_id))!;
    expect(mid).toMatchObject({ node: 'compile_plan', status: 'running', intent: 'nl2sql' });
    expect(mid.reading).toMatchObject({ request: REQUEST, trusted: true, plan: { source: 'sensor_stream' } });
    const compileJob = jobId(at.session_id, 1, 'compile_plan', 0);
    expect(await queued(QueueName.Validator, compileJob)).toBeDefined();

    // BullMQ re-delivers the stalled first job: the checkpoint moved on, so it is dropped, and its
    // successor (already queued, same deterministic id) is not queued twice.
    await expect(core.runner.run(delivery(at, 1), trusting, 'validator')).resolves.toBe('stale');
    expect((await core.probe.store.get(at.session_id))!.version).toBe(mid.version);
    const validatorJobs = await core.ctx
      .get<Queue>(getQueueToken(QueueName.Validator), { strict: false })
      .getJobs(['waiting', 'prioritized', 'delayed']);
    expect(validatorJobs.filter((j) => j.id === compileJob)).toHaveLength(1);

    // The compile_plan job: the plan compiled (no model), then the local check and the engine's
    // on in the same job, up to the explainer's queue.
    await expect(core.runner.run(delivery(mid), trusting, 'validator')).resolves.toBe('advanced');
    const after = (await core.probe.store.get(at.session_id))!;
    expect(after).toMatchObject({
      node: 'explain',
      status: 'running',
      draft: expect.objectContaining({ mode: 'plan' }),
    });
    expect(after.draft.sql).toMatch(/tumblingwindow\('ss', 10\)/);
    expect(after.validation).toMatchObject({ ok: true, attempt: 1 });
    expect(await queued(QueueName.Explainer, jobId(at.session_id, 1, 'explain', 1))).toBeDefined();

    // A duplicate delivery of the compile_plan job after it advanced: dropped, the attempt counted once.
    await expect(core.runner.run(delivery(mid, 1), trusting, 'validator')).resolves.toBe('stale');
    const final = (await core.probe.store.get(at.session_id))!;
    expect(final.version).toBe(after.version);
    expect(final.validation.attempt).toBe(1);
    expect(core.llm.requests).toEqual([]);
  });

  it('a job whose worker kept dying (stalled too often) ends its turn with a clear error', async () => {
    const at = await core.probe.session({ node: 'draft_sql', status: 'running', attempt: 0 });
    const job = { ...delivery(at, 0, 'envelope'), finishedOn: Date.now() } as unknown as Job<NodeJobData>;
    await core.runner.onJobFailed(
      job,
      Object.assign(new Error('job stalled more than allowable limit'), { name: 'UnrecoverableError' }),
    );
    const ended = (await core.probe.store.get(at.session_id))!;
    expect(ended.status).toBe('failed');
    expect(ended.error?.message).toBe(
      'draft_sql: the worker running it stopped again and again (job stalled more than allowable limit)',
    );
    const events = await core.probe.eventList(at.session_id);
    expect(events.slice(-1)).toEqual([{ type: 'turn_end', turn_id: 1, status: 'failed' }]);
  });
});

describe('recovery on resume', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let stack: Stack;
  let api: GatewayClient;
  let probe: RedisProbe;

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    stack = await startStack({ managerUrl, llmUrl });
    api = new GatewayClient(stack.gatewayUrl);
    probe = new RedisProbe(stack.config);
    await waitFor('the first janitor sweep', async () => (await probe.stats()).sweeps >= 1);
  });

  afterAll(async () => {
    probe?.close();
    await stack?.close();
    await Promise.all([manager.stop(), llm.stop()]);
  });

  it("the previous turn's recorded temp pipeline is deleted before the new turn's first node", async () => {
    const id = await api.createSession();
    // The turn failed while the engine was down: its temp pipeline stayed, recorded.
    const tmp = tmpPipelineId(id, 1, 1);
    const fresh = (await probe.store.get(id))!;
    await probe.store.compareAndSet(fresh.version, {
      ...fresh,
      turn_id: 1,
      node: 'cleanup',
      status: 'failed',
      error: { node: 'cleanup', message: 'cleanup: the engine (veloFlux Manager) is unavailable' },
      validation: { ...fresh.validation, attempt: 1, tmp_pipeline_id: tmp },
    });
    await new (await import('@nl2p/engine')).ManagerClient({ baseUrl: manager.baseUrl }).createPipeline({
      id: tmp,
      sql: GOOD_SQL,
      sinks: [{ type: 'nop' }],
    });
    manager.requests.length = 0;

    new LlmScript(llm).route(nl2sql()).draft(GOOD_SQL);
    const view = await api.turn(id, { text: REQUEST });
    expect(view.interrupt.type).toBe('need_confirm');
    expect(manager.pipelines().filter((p) => p.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    const order = manager.requests.map((r) => `${r.method} ${decodeURIComponent(r.rawPath)}`);
    expect(order[0]).toBe(`DELETE /pipelines/${tmp}`);
    expect(order.indexOf('GET /streams')).toBeGreaterThan(0);
  });
});

describe('worker lock settings', () => {
  it('outlast the slowest single LLM call, applied to every workflow worker', async () => {
    const config = loadConfig(
      testEnv({ managerUrl: 'http://127.0.0.1:9', llmUrl: 'http://127.0.0.1:9/v1', env: { LLM_TIMEOUT_MS: '45000' } }),
    );
    expect(workerTiming(config)).toEqual({ lockDuration: 50_000, stalledInterval: 12_500, maxStalledCount: 2 });
    const ctx = await NestFactory.createApplicationContext(ValidatorModule.forRoot(config), {
      logger: new ConsoleLogger('test', { logLevels: ['error'] }),
    });
    try {
      await ctx.init();
      const worker = ctx.get<ValidatorWorker, { worker: Worker }>(ValidatorWorker).worker;
      expect(worker.opts).toMatchObject({ lockDuration: 50_000, lockRenewTime: 25_000, stalledInterval: 12_500 });
      const lockManager = (worker as unknown as { lockManager: { opts: { lockDuration: number } } }).lockManager;
      expect(lockManager.opts.lockDuration).toBe(50_000);
      expect(worker.isRunning()).toBe(true);
    } finally {
      await ctx.close();
      await deletePrefix(config.redis.url, config.redis.prefix);
    }
  });
});
