import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { jobId } from '@nl2p/envelope';
import { GRAPH, QueueName } from '@nl2p/graph';
import { Engines, explainerNodes } from '@nl2p/nodes';
import type { NodeHandlers, NodeJobData } from '@nl2p/workflow-runtime';
import { TraceLog } from '@nl2p/session-store';
import { delivery, useWorkerCore } from '../support/worker-core';

jest.setTimeout(30_000);

/**
 * Nodes of one service that follow each other (explain → cleanup → confirm) run in one job: each
 * still gets its own checkpoint and trace record, and a retryable failure of one run on that way
 * is retried in its own job with the deliveries its policy has left. Driven job by job, as in
 * the recovery suite (no consumers run here).
 */
describe('node runs on in the job of the node before it', () => {
  const core = useWorkerCore();
  let explainer: NodeHandlers;
  let traces: TraceLog;

  beforeAll(() => {
    explainer = explainerNodes({ engines: core.ctx.get(Engines) });
    traces = core.ctx.get(TraceLog);
  });

  const queued = (id: string) =>
    core.ctx.get<Queue>(getQueueToken(QueueName.Explainer), { strict: false }).getJob(id) as Promise<
      Job<NodeJobData> | undefined
    >;
  const runs = async (sessionId: string) =>
    (await traces.list(sessionId)).map((r) => `${r.node}#${r.delivery}${r.ok ? '' : ' failed'}`);

  it('explain, cleanup and confirm in one job: a checkpoint and a trace record each, no job for the last two', async () => {
    const at = await core.probe.session({ node: 'explain', status: 'running', attempt: 1 });

    await expect(core.runner.run(delivery(at), explainer, 'explainer')).resolves.toBe('advanced');

    const after = (await core.probe.store.get(at.session_id))!;
    expect(after).toMatchObject({ node: 'confirm', status: 'waiting', version: at.version + 3 });
    expect(after.interrupt?.type).toBe('need_confirm');
    expect(await runs(at.session_id)).toEqual(['explain#1', 'cleanup#1', 'confirm#1']);
    const events = (await core.probe.eventList(at.session_id)).map((e) =>
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
    const at = await core.probe.session({ node: 'explain', status: 'running', attempt: 1 });

    // The job of explain completes; cleanup's failed run hands cleanup to its own job.
    await expect(core.runner.run(delivery(at), flaky, 'explainer')).resolves.toBe('advanced');
    expect(await core.probe.store.get(at.session_id)).toMatchObject({ node: 'cleanup', status: 'running' });
    const handed = await queued(jobId(at.session_id, 1, 'cleanup', 1));
    expect(handed).toBeDefined();
    expect(handed!.data.deliveries_before).toBe(1);
    expect(handed!.opts.attempts).toBe(GRAPH.cleanup.jobOptions.attempts - 1);

    // Its delivery, as BullMQ hands it over after the backoff: cleanup's second, then confirm.
    await expect(core.runner.run(handed!, flaky, 'explainer')).resolves.toBe('advanced');
    expect(await core.probe.store.get(at.session_id)).toMatchObject({ node: 'confirm', status: 'waiting' });
    expect(await runs(at.session_id)).toEqual(['explain#1', 'cleanup#1 failed', 'cleanup#2', 'confirm#1']);
  });
});
