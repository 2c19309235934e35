import { Module, ValidationPipe, type DynamicModule } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ConfigModule, type AppConfig } from '@nl2p/config';
import { InfraModule } from '@nl2p/queue';
import { EventStreamService } from './events/event-stream.service';
import { EventsController } from './events/events.controller';
import { HealthController } from './health/health.controller';
import { SeedTraceController, SeedTurnController, SessionsController } from './sessions/sessions.controller';
import { TurnService } from './sessions/turn.service';

@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)],
      controllers: [SessionsController, EventsController, SeedTurnController, SeedTraceController, HealthController],
      providers: [
        TurnService,
        EventStreamService,
        {
          provide: APP_PIPE,
          // Unknown fields are an error, not silently dropped: a typo must not go unnoticed.
          useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }),
        },
      ],
    };
  }
}
