import { ConsoleLogger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Job } from 'bullmq';
import { loadConfig, type AppConfig } from '@nl2p/config';
import { jobId, type Envelope } from '@nl2p/envelope';
import { WorkerCoreModule } from '@nl2p/nodes';
import { NodeRunner, jobAddress, type NodeJobData } from '@nl2p/workflow-runtime';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { RedisProbe } from '../reliability/support';
import { deletePrefix, testEnv } from './stack';

/** The worker core of one spec file, valid inside its tests. */
export interface WorkerCore {
  readonly manager: FakeManager;
  readonly llm: ScriptedLlm;
  readonly config: AppConfig;
  readonly ctx: INestApplicationContext;
  readonly runner: NodeRunner;
  readonly probe: RedisProbe;
}

/**
 * For specs that drive the node runner job by job (no consumers run, so a crash or a failure can be
 * placed exactly): the fakes, the worker core's module on real Redis and BullMQ, and a probe of
 * the session store, started once per file and stopped after it; the fakes reset before each test.
 */
export function useWorkerCore(): WorkerCore {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let state: { config: AppConfig; ctx: INestApplicationContext; runner: NodeRunner; probe: RedisProbe } | undefined;
  const ready = () => {
    if (!state) throw new Error('the worker core is only there inside a test (after beforeAll)');
    return state;
  };

  beforeAll(async () => {
    const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
    const config = loadConfig(testEnv({ managerUrl, llmUrl }));
    const ctx = await NestFactory.createApplicationContext(WorkerCoreModule.forRoot(config), {
      logger: new ConsoleLogger('test', { logLevels: ['error'] }),
    });
    state = { config, ctx, runner: ctx.get(NodeRunner), probe: new RedisProbe(config) };
  });
  afterAll(async () => {
    state?.probe.close();
    await state?.ctx.close();
    if (state) await deletePrefix(state.config.redis.url, state.config.redis.prefix);
    await Promise.all([manager.stop(), llm.stop()]);
  });
  beforeEach(() => {
    manager.reset();
    llm.reset();
  });

  return {
    manager,
    llm,
    get config() {
      return ready().config;
    },
    get ctx() {
      return ready().ctx;
    },
    get runner() {
      return ready().runner;
    },
    get probe() {
      return ready().probe;
    },
  };
}

/**
 * A delivery of the job the dispatcher queues for `envelope`, as BullMQ hands it to the processor:
 * carrying the checkpoint's address, or (`payload: 'envelope'`) the whole envelope, as jobs queued
 * before addresses did.
 */
export function delivery(
  envelope: Envelope,
  attemptsMade = 0,
  payload: 'address' | 'envelope' = 'address',
): Job<NodeJobData> {
  const id = jobId(envelope.session_id, envelope.turn_id, envelope.node!, envelope.validation.attempt);
  const data = { envelope: payload === 'address' ? jobAddress(envelope) : envelope };
  return { id, data, attemptsMade, opts: { attempts: 3 } } as unknown as Job<NodeJobData>;
}
