import { ConsoleLogger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { loadConfig, type AppConfig } from '@nl2p/config';
import { jobId, type Envelope } from '@nl2p/envelope';
import { GRAPH, QueueName } from '@nl2p/graph';
import { Engines, WorkerCoreModule, explainerNodes } from '@nl2p/nodes';
import { NodeRunner, jobAddress, type NodeHandlers, type NodeJobData } from '@nl2p/workflow-runtime';
import { TraceLog } from '@nl2p/session-store';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { deletePrefix, testEnv } from '../support/stack';
import { RedisProbe } from '../reliability/support';

jest.setTimeout(30_000);

/** The first delivery of the job the dispatcher queues for `envelope`. */
function firstDelivery(envelope: Envelope): Job<NodeJobData> {
  const id = jobId(envelope.session_id, envelope.turn_id, envelope.node!, envelope.validation.attempt);
  return {
    id,
    data: { envelope: jobAddress(envelope) },
    attemptsMade: 0,
    opts: { attempts: 3 },
  } as unknown as Job<NodeJobData>;
}

/**
 * Nodes of one service that follow each other (explain → cleanup → confirm) run in one job: each
 * still gets its own checkpoint and trace record, and a retryable failure of one run on that way
 * is retried in its own job with the deliveries its policy has left. Driven job by job, as in
 * the recovery suite (no consumers run here).
 */
describe('node runs on in the job of the node before it', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let config: AppConfig;
  let ctx: INestApplicationContext;
  let runner: NodeRunner;
  let explainer: NodeHandlers;
  let probe: RedisProbe;
  let traces: TraceLog;

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    config = loadConfig(testEnv({ managerUrl, llmUrl }));
    ctx = await NestFactory.createApplicationContext(WorkerCoreModule.forRoot(config), {
      logger: new ConsoleLogger('test', { logLevels: ['error'] }),
    });
    runner = ctx.get(NodeRunner);
    explainer = explainerNodes({ engines: ctx.get(Engines) });
    traces = ctx.get(TraceLog);
    probe = new RedisProbe(config);
  });

  afterAll(async () => {
    probe?.close();
    await ctx?.close();
    await deletePrefix(config.redis.url, config.redis.prefix);
    await Promise.all([manager.stop(), llm.stop()]);
  });

  const queued = (id: string) =>
    ctx.get<Queue>(getQueueToken(QueueName.Explainer), { strict: false }).getJob(id) as Promise<
      Job<NodeJobData> | undefined
    >;
  const runs = async (sessionId: string) =>
    (await traces.list(sessionId)).map((r) => `${r.node}#${r.delivery}${r.ok ? '' : ' failed'}`);

  it('explain, cleanup and confirm in one job: a checkpoint and a trace record each, no job for the last two', async () => {
    const at = await probe.session({ node: 'explain', status: 'running', attempt: 1 });

    await expect(runner.run(firstDelivery(at), explainer, 'explainer')).resolves.toBe('advanced');

    const after = (await probe.store.get(at.session_id))!;
    expect(after).toMatchObject({ node: 'confirm', status: 'waiting', version: at.version + 3 });
    expect(after.interrupt?.type).toBe('need_confirm');
    expect(await runs(at.session_id)).toEqual(['explain#1', 'cleanup#1', 'confirm#1']);
    const events = (await probe.eventList(at.session_id)).map((e) =>
      'node' in e && e.type.startsWith('node_') ? `${e.type} ${String(e.node)}` : e.type,
    );
    expect(events).toEqual([
      'node_start explain',
      'node_end explain',
      'node_start cleanup',
      'node_end cleanup',
      'node_start confirm',
      'node_end confirm',
      'interrupt',
      'turn_end',
    ]);
    expect(await queued(jobId(at.session_id, 1, 'cleanup', 1))).toBeUndefined();
    expect(await queued(jobId(at.session_id, 1, 'confirm', 1))).toBeUndefined();
  });

  it('a retryable failure of a node run on is retried in its own job, counting the delivery it had', async () => {
    let failures = 1;
    const flaky: NodeHandlers = {
      ...explainer,
      cleanup: async (e, c) => {
        if (failures-- > 0) throw new Error('connection reset');
        return explainer.cleanup!(e, c);
      },
    };
    const at = await probe.session({ node: 'explain', status: 'running', attempt: 1 });

    // The job of explain completes; cleanup's failed run hands cleanup to its own job.
    await expect(runner.run(firstDelivery(at), flaky, 'explainer')).resolves.toBe('advanced');
    expect(await probe.store.get(at.session_id)).toMatchObject({ node: 'cleanup', status: 'running' });
    const handed = await queued(jobId(at.session_id, 1, 'cleanup', 1));
    expect(handed).toBeDefined();
    expect(handed!.data.deliveries_before).toBe(1);
    expect(handed!.opts.attempts).toBe(GRAPH.cleanup.jobOptions.attempts - 1);

    // Its delivery, as BullMQ hands it over after the backoff: cleanup's second, then confirm.
    await expect(runner.run(handed!, flaky, 'explainer')).resolves.toBe('advanced');
    expect(await probe.store.get(at.session_id)).toMatchObject({ node: 'confirm', status: 'waiting' });
    expect(await runs(at.session_id)).toEqual(['explain#1', 'cleanup#1 failed', 'cleanup#2', 'confirm#1']);
  });
});
