import { Module, ValidationPipe, type DynamicModule } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { ConfigModule, type AppConfig } from '@nl2p/config';
import { InfraModule, REDIS } from '@nl2p/workflow-runtime';
import { EventHub, RedisKeys } from '@nl2p/session-store';
import { ApiKeyGuard } from './auth/auth.guard';
import { RedisThrottlerStorage } from './auth/redis-throttler.storage';
import { TenantLimits } from './auth/tenant-limits.service';
import { TenantThrottlerGuard } from './auth/tenant-throttler.guard';
import { EventStreamService } from './events/event-stream.service';
import { EventsController } from './events/events.controller';
import { GlossaryModule } from './glossary/glossary.module';
import { HealthController } from './health/health.controller';
import { SeedTraceController, SeedTurnController, SessionsController } from './sessions/sessions.controller';
import { RunService } from './sessions/run.service';
import { TurnService } from './sessions/turn.service';
import { CatalogModule } from './streams/catalog.module';
import { StreamsController, TargetsController } from './streams/streams.controller';

@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forRoot(config),
        InfraModule.forRoot(config),
        CatalogModule,
        GlossaryModule,
        // Counters live in Redis so a tenant's limit holds across gateway replicas.
        ThrottlerModule.forRootAsync({
          inject: [REDIS],
          useFactory: (redis: Redis) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.limits.ratePerMinute }],
            storage: new RedisThrottlerStorage(redis, config.redis.prefix),
          }),
        }),
      ],
      controllers: [
        SessionsController,
        EventsController,
        SeedTurnController,
        SeedTraceController,
        HealthController,
        StreamsController,
        TargetsController,
      ],
      providers: [
        TurnService,
        RunService,
        EventStreamService,
        // One blocking Redis connection for every SSE client and waiting turn of this process.
        { provide: EventHub, inject: [REDIS, RedisKeys], useFactory: (r: Redis, k: RedisKeys) => new EventHub(r, k) },
        TenantLimits,
        // Order matters: the key decides the tenant, then the tenant's rate limit applies.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: TenantThrottlerGuard },
        {
          provide: APP_PIPE,
          // Unknown fields are an error, not silently dropped: a typo must not go unnoticed.
          useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
        },
      ],
    };
  }
}
