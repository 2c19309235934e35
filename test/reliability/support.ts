import { ConsoleLogger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '@nl2p/config';
import { newSessionEnvelope, type Envelope, type NodeName, type SessionEvent, type TurnStatus } from '@nl2p/envelope';
import { EventLog, RedisKeys, RedisSessionStore } from '@nl2p/session-store';
import { JanitorModule } from '../../apps/janitor/src/janitor.module';
import { JanitorService, readStats } from '../../apps/janitor/src/janitor.service';

export const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
export const REQUEST = 'average temperature per device every 10 seconds, only above 30';
export const nl2sql = (stream: string | null = 'sensor_stream') => ({
  intent: 'nl2sql' as const,
  stream,
  question: null,
});

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err instanceof Error ? err.message : JSON.stringify(err);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function newSessionId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Direct access to a test stack's Redis state, as the services see it. */
export class RedisProbe {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly store: RedisSessionStore;
  readonly events: EventLog;

  constructor(config: AppConfig) {
    this.redis = new Redis(config.redis.url);
    this.keys = new RedisKeys(config.redis.prefix);
    this.store = new RedisSessionStore(this.redis, this.keys, config.retention.sessionTtlSeconds);
    this.events = new EventLog(this.redis, this.keys, 1_000, config.retention.sessionTtlSeconds);
  }

  /**
   * Stores a session whose turn `turnId` stands at `node` (attempt `attempt`) with `status`, as if
   * the workflow had brought it there. Returns the stored checkpoint.
   */
  async session(opts: {
    id?: string;
    turnId?: number;
    node: NodeName | null;
    status: TurnStatus;
    attempt?: number;
    tmp?: string | null;
  }): Promise<Envelope> {
    const id = opts.id ?? newSessionId();
    const fresh = newSessionEnvelope({
      sessionId: id,
      target: 'veloflux',
      maxAttempts: 3,
      sink: { type: 'nop', props: {} },
    });
    if (!(await this.store.create(fresh))) throw new Error(`session ${id} exists`);
    const saved = await this.store.compareAndSet(fresh.version, {
      ...fresh,
      turn_id: opts.turnId ?? 1,
      node: opts.node,
      status: opts.status,
      active_stream: 'sensor_stream',
      request: REQUEST,
      draft: { ...fresh.draft, sql: GOOD_SQL },
      validation: { ...fresh.validation, attempt: opts.attempt ?? 1, tmp_pipeline_id: opts.tmp ?? null },
    });
    if (!saved) throw new Error('checkpoint failed');
    return saved;
  }

  async eventList(sessionId: string): Promise<SessionEvent[]> {
    return (await this.events.range(sessionId)).map((e) => e.event);
  }

  stats() {
    return readStats(this.redis, this.keys);
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** One janitor replica: the real module in its own application context. */
export async function startJanitor(
  config: AppConfig,
): Promise<{ ctx: INestApplicationContext; janitor: JanitorService }> {
  const ctx = await NestFactory.createApplicationContext(JanitorModule.forRoot(config), {
    logger: new ConsoleLogger('janitor', { logLevels: ['error'] }),
  });
  await ctx.init();
  return { ctx, janitor: ctx.get(JanitorService) };
}
