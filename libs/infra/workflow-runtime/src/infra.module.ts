import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { BullModule } from '@nestjs/bullmq';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { QueueName, WORKFLOW_QUEUES } from '@nl2p/graph';
import { shutdownTelemetry } from '@nl2p/telemetry';
import { CatalogCache, EventLog, RedisKeys, RedisSessionStore, TraceLog } from '@nl2p/session-store';
import { WorkflowDispatcher } from './dispatcher';
import { TurnControl } from './turn-control';
import { NodeRunner } from './node-runner';
import { QueueDepthReporter } from './queue-depth';
import { WorkerLifecycle } from './worker-lifecycle';
import { REDIS, SESSION_STORE } from './tokens';

/** Closes the shared Redis connection and flushes the last spans when the app stops. */
class InfraShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
    await shutdownTelemetry();
  }
}

/**
 * Redis, BullMQ and the session stores, shared by every service. Each app imports this once;
 * producers exist for every workflow queue so any node can hand the envelope to the next one.
 */
@Global()
@Module({})
export class InfraModule {
  static forRoot(config: AppConfig): DynamicModule {
    const ttl = config.retention.sessionTtlSeconds;
    return {
      module: InfraModule,
      imports: [
        DiscoveryModule,
        BullModule.forRoot({ connection: { url: config.redis.url }, prefix: `${config.redis.prefix}-bull` }),
        // Producers for every workflow queue, and the janitor's (for `reap` jobs).
        BullModule.registerQueue(...[...WORKFLOW_QUEUES, QueueName.Janitor].map((name) => ({ name }))),
      ],
      providers: [
        // Commands wait through a short Redis outage (a restart) instead of failing the node
        // that sent them: ~20 reconnect attempts, about ten seconds, before a command errors.
        // Commands issued in the same tick (concurrent jobs of one worker) go out in one write
        // (auto-pipelining): a socket write per command was a tenth of a worker's CPU.
        {
          provide: REDIS,
          useFactory: () => new Redis(config.redis.url, { maxRetriesPerRequest: 20, enableAutoPipelining: true }),
        },
        { provide: RedisKeys, useValue: new RedisKeys(config.redis.prefix) },
        {
          provide: SESSION_STORE,
          inject: [REDIS, RedisKeys],
          useFactory: (r: Redis, k: RedisKeys) =>
            new RedisSessionStore(r, k, ttl, config.retention.eventsMaxLen, config.retention.traceMaxRecords),
        },
        {
          provide: EventLog,
          inject: [REDIS, RedisKeys],
          useFactory: (r: Redis, k: RedisKeys) => new EventLog(r, k, config.retention.eventsMaxLen, ttl),
        },
        {
          provide: TraceLog,
          inject: [REDIS, RedisKeys],
          useFactory: (r: Redis, k: RedisKeys) => new TraceLog(r, k, config.retention.traceMaxRecords, ttl),
        },
        {
          provide: CatalogCache,
          inject: [REDIS, RedisKeys, APP_CONFIG],
          useFactory: (r: Redis, k: RedisKeys, c: AppConfig) => new CatalogCache(r, k, c.retention.catalogTtlSeconds),
        },
        InfraShutdown,
        WorkflowDispatcher,
        TurnControl,
        NodeRunner,
        // Queue depth for /metrics; probes, metrics port and graceful stop of the app's workers.
        QueueDepthReporter,
        WorkerLifecycle,
      ],
      exports: [
        BullModule,
        REDIS,
        RedisKeys,
        SESSION_STORE,
        EventLog,
        TraceLog,
        CatalogCache,
        WorkflowDispatcher,
        TurnControl,
        NodeRunner,
        WorkerLifecycle,
      ],
    };
  }
}
