import { Global, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@nl2p/config';
import type { Catalog } from '@nl2p/engine';
import { InfraModule } from '@nl2p/queue';
import { CatalogCache } from '@nl2p/session-store';
import { Engines, createLlmClient } from './clients';
import { Grounding } from './grounding';

export const LLM_CLIENT = Symbol('LLM_CLIENT');

/** Closes database pools and handles when the app stops. */
@Injectable()
class EnginesCloser implements OnApplicationShutdown {
  constructor(private readonly engines: Engines) {}
  async onApplicationShutdown(): Promise<void> {
    await this.engines.close();
  }
}

/**
 * What every worker app needs: config, Redis/BullMQ, the engines, the LLM and the grounding
 * cache. Clients are cheap to build (engines connect on first use), so each app gets all.
 */
@Global()
@Module({})
export class WorkerCoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerCoreModule,
      imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)],
      providers: [
        { provide: Engines, useFactory: () => new Engines(config) },
        EnginesCloser,
        { provide: LLM_CLIENT, useFactory: () => createLlmClient(config) },
        {
          provide: Grounding,
          inject: [Engines, CatalogCache],
          useFactory: (engines: Engines, cache: CatalogCache<Catalog>) => new Grounding(engines, cache),
        },
      ],
      exports: [Engines, LLM_CLIENT, Grounding],
    };
  }
}
