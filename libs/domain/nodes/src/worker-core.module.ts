import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@nl2p/config';
import type { Catalog, EngineTarget } from '@nl2p/engine';
import { InfraModule } from '@nl2p/queue';
import { CatalogCache } from '@nl2p/session-store';
import { createEngineTarget, createLlmClient, engineKey } from './clients';
import { Grounding } from './grounding';

export const ENGINE = Symbol('ENGINE');
export const LLM_CLIENT = Symbol('LLM_CLIENT');

/**
 * What every worker app needs: config, Redis/BullMQ, the engine, the LLM and the grounding
 * cache. Clients are cheap to build (no connection until first use), so each app gets all.
 */
@Global()
@Module({})
export class WorkerCoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerCoreModule,
      imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)],
      providers: [
        { provide: ENGINE, useFactory: () => createEngineTarget(config) },
        { provide: LLM_CLIENT, useFactory: () => createLlmClient(config) },
        {
          provide: Grounding,
          inject: [ENGINE, CatalogCache],
          useFactory: (engine: EngineTarget, cache: CatalogCache<Catalog>) =>
            new Grounding(engine, cache, engineKey(config)),
        },
      ],
      exports: [ENGINE, LLM_CLIENT, Grounding],
    };
  }
}
