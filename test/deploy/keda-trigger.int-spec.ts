import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import { Worker, type Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ConfigModule, loadConfig, type AppConfig } from '@nl2p/config';
import { QueueName } from '@nl2p/graph';
import { metricsText } from '@nl2p/metrics';
import { InfraModule, queueDepth } from '@nl2p/workflow-runtime';
import { parsePrometheusText, type Sample } from '../support/prometheus';
import { deletePrefix, testEnv } from '../support/stack';
import { render } from './render';

/**
 * The KEDA trigger of overlays/prod, as rendered, must read exactly the jobs a real BullMQ queue
 * holds for its workers: waiting, prioritized (a sorted set the wait list misses), delayed and
 * active. The query is evaluated over what the services' /metrics exports, the way Prometheus
 * would (this shape only: sum(max by (state) (metric{queue="…",state=~"…"}))), and compared
 * with BullMQ's own count and with the jobs the test put there.
 */
const QUERY = /^sum\(max by \(state\) \((\w+)\{queue="([^"]+)",state=~"([^"]+)"\}\)\)$/;

function evaluate(query: string, samples: Sample[]): number {
  const m = QUERY.exec(query);
  if (!m) throw new Error(`the ScaledObject's query changed shape; teach this test to read it: ${query}`);
  const [, metric, queue, states] = m;
  const stateRe = new RegExp(`^(?:${states})$`);
  const maxByState = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== metric || s.labels.queue !== queue || !stateRe.test(s.labels.state)) continue;
    maxByState.set(s.labels.state, Math.max(maxByState.get(s.labels.state) ?? -Infinity, s.value));
  }
  return [...maxByState.values()].reduce((a, b) => a + b, 0);
}

describe('KEDA trigger of the LLM workers reads what the BullMQ queue holds (real Redis)', () => {
  let config: AppConfig;
  let ctx: INestApplicationContext;
  let redis: Redis;
  let worker: Worker | undefined;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    config = loadConfig(testEnv({ llmUrl: 'http://127.0.0.1:9', managerUrl: 'http://127.0.0.1:9' }));
    // The producers and the queue-depth reporter every service runs (here without any worker).
    ctx = await NestFactory.createApplicationContext(
      {
        module: class KedaProbeModule {},
        imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)],
      },
      { logger: false },
    );
    await ctx.init();
    redis = new Redis(config.redis.url);
  });

  afterAll(async () => {
    release();
    await worker?.close();
    await ctx?.close();
    redis?.disconnect();
    await deletePrefix(config.redis.url, config.redis.prefix);
  });

  it.each([QueueName.SqlDrafter, QueueName.RouterLlm])(
    '%s: waiting, prioritized, delayed and active jobs are all counted',
    async (name) => {
      const scaled = render('prod').find((o) => o.kind === 'ScaledObject' && o.spec.scaleTargetRef.name === name);
      const query: string = scaled?.spec.triggers[0].metadata.query;
      expect(query).toContain(`queue="${name}"`);

      const queue = ctx.get<Queue>(getQueueToken(name), { strict: false });
      // One job a worker holds (active) …
      const held = new Promise<void>((done) => {
        release = done;
      });
      await queue.add('held', {}, { jobId: `${name}-held` });
      worker = new Worker(name, () => held, { connection: { url: config.redis.url }, prefix: queue.opts.prefix });
      await waitFor(async () => (await queue.getActiveCount()) === 1);
      await worker.pause(true);
      // … then what the dispatcher enqueues (plain jobs), prioritized and delayed ones.
      for (let i = 0; i < 3; i++) await queue.add('plain', {}, { jobId: `${name}-plain-${i}` });
      for (let i = 0; i < 2; i++) await queue.add('urgent', {}, { jobId: `${name}-prio-${i}`, priority: 5 });
      for (let i = 0; i < 2; i++) await queue.add('retry', {}, { jobId: `${name}-delayed-${i}`, delay: 600_000 });

      const counts = await queueDepth(queue);
      expect(counts).toMatchObject({ waiting: 3, prioritized: 2, delayed: 2, active: 1 });
      const heldByQueue = counts.waiting + counts.prioritized + counts.delayed + counts.active;

      const scraped = parsePrometheusText(await metricsText());
      expect(evaluate(query, scraped)).toBe(heldByQueue);
      expect(heldByQueue).toBe(8);

      // The pitfall the list trigger has: the wait list under the configured prefix holds only
      // the 3 plain jobs, so a redis-list trigger on it would read 3 of these 8.
      const waitKey = `${config.redis.prefix}-bull:${name}:wait`;
      expect(queue.opts.prefix).toBe(`${config.redis.prefix}-bull`);
      expect(await redis.llen(waitKey)).toBe(3);
      expect(await redis.zcard(`${config.redis.prefix}-bull:${name}:prioritized`)).toBe(2);
      // BullMQ 6 keeps a paused queue's jobs in the wait list (no `:paused` list any more).
      await queue.pause();
      await queue.add('while-paused', {}, { jobId: `${name}-paused` });
      expect(await redis.exists(`${config.redis.prefix}-bull:${name}:paused`)).toBe(0);
      expect(await redis.llen(waitKey)).toBe(4);
      expect(evaluate(query, parsePrometheusText(await metricsText()))).toBe(9);
      await queue.resume();

      release();
      await worker.close(true);
      worker = undefined;
      await queue.obliterate({ force: true });
    },
  );
});

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
