import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Processor, WorkerHost, getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { ConfigModule, loadConfig, type AppConfig } from '@nl2p/config';
import { QueueName } from '@nl2p/graph';
import { InfraModule, WorkerLifecycle, queueDepth } from '@nl2p/workflow-runtime';
import { deletePrefix, testEnv } from '../support/stack';

/** How long each test job runs: set per test. */
let jobMs = 0;
/** Jobs whose processor runs (a job is active in Redis a moment before its processor starts). */
const processing = new Set<string>();

@Processor(QueueName.Validator)
class SlowWorker extends WorkerHost {
  async process(job: Job): Promise<string> {
    processing.add(job.id ?? '');
    await new Promise((r) => setTimeout(r, jobMs));
    return `done ${job.id}`;
  }
}

/**
 * SIGTERM in a worker app (Nest's shutdown hooks): readiness turns 503, no new job is taken, a
 * running job gets SHUTDOWN_GRACE_MS to finish, and one still running then is handed back to
 * the wait list at once (not after its lock expires), so another replica takes it.
 */
describe('graceful stop of a worker (real Redis, BullMQ)', () => {
  let config: AppConfig;

  beforeAll(() => {
    config = loadConfig(
      testEnv({
        llmUrl: 'http://127.0.0.1:9',
        managerUrl: 'http://127.0.0.1:9',
        env: { SHUTDOWN_GRACE_MS: '400', METRICS_PORT: '0' },
      }),
    );
  });
  afterAll(() => deletePrefix(config.redis.url, config.redis.prefix));

  async function startWorker(): Promise<INestApplicationContext> {
    @Module({ imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)], providers: [SlowWorker] })
    class SlowWorkerModule {}
    const ctx = await NestFactory.createApplicationContext(SlowWorkerModule, { logger: false });
    await ctx.init();
    return ctx;
  }

  async function untilProcessing(id: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!processing.has(id)) {
      if (Date.now() > deadline) throw new Error(`job ${id} never started`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a job still running after the grace is handed back to the queue; readiness says stopping', async () => {
    jobMs = 60_000;
    const ctx = await startWorker();
    const lifecycle = ctx.get(WorkerLifecycle);
    const probe = lifecycle.probeAddress();
    expect(probe).not.toBeNull();
    const url = `http://127.0.0.1:${probe!.port}/health`;
    expect((await fetch(url)).status).toBe(200);
    const queue = ctx.get<Queue>(getQueueToken(QueueName.Validator), { strict: false });
    await queue.add('slow', {}, { jobId: 'slow-1' });
    await untilProcessing('slow-1');

    const stopping = lifecycle.beforeApplicationShutdown('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    expect(await lifecycle.readiness()).toMatchObject({ ready: false, reason: 'stopping' });
    const started = Date.now();
    await stopping;
    const tookMs = Date.now() - started;
    // Within the grace (400 ms) plus a little, far below the job lock (LLM_TIMEOUT_MS + 5 s).
    expect(tookMs).toBeLessThan(2_000);
    expect(await queueDepth(queue)).toMatchObject({ waiting: 1, active: 0 });
    expect(await (await queue.getJob('slow-1'))?.getState()).toBe('waiting');
    await ctx.close();
    await queue.obliterate({ force: true }).catch(() => undefined);
  });

  it('a job that finishes within the grace completes and is not handed back', async () => {
    jobMs = 150;
    const ctx = await startWorker();
    const queue = ctx.get<Queue>(getQueueToken(QueueName.Validator), { strict: false });
    await queue.add('quick', {}, { jobId: 'quick-1' });
    await untilProcessing('quick-1');
    await ctx.close();
    const other = await startWorker();
    const q2 = other.get<Queue>(getQueueToken(QueueName.Validator), { strict: false });
    expect(await (await q2.getJob('quick-1'))?.getState()).toBe('completed');
    await other.close();
  });
});
