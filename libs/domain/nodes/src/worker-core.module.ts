import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, ConfigModule, type AppConfig } from '@nl2p/config';
import { llmProvider, type LlmClient } from '@nl2p/llm';
import type { Catalog } from '@nl2p/engine';
import { InfraModule, TMP_PIPELINES, type TmpPipelineLedger } from '@nl2p/workflow-runtime';
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

/** Options of {@link WorkerCoreModule.forRoot}. */
export interface WorkerCoreOptions {
  /** The app runs LLM nodes (router-llm, sql-drafter): a local model is loaded at its start. */
  usesLlm?: boolean;
}

const WORKER_CORE_OPTIONS = Symbol('WORKER_CORE_OPTIONS');

/**
 * The LLM provider's lifecycle in an app that runs LLM nodes: what the provider must load (the
 * embedded model) is loaded at start, so the first request does not wait for it and a missing
 * model stops the service with a clear message instead of failing every request; it is freed at
 * shutdown. Nothing happens for providers with nothing to load, or in apps without LLM nodes.
 */
@Injectable()
export class LlmProviderLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LlmProvider');

  constructor(
    @Inject(LLM_CLIENT) private readonly llm: LlmClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WORKER_CORE_OPTIONS) private readonly options: WorkerCoreOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const provider = llmProvider(this.config);
    if (!this.options.usesLlm || !provider.warmUp) return;
    this.logger.log(await provider.warmUp(this.llm, this.config));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.options.usesLlm) await llmProvider(this.config).dispose?.();
  }
}

/**
 * What every worker app needs: config, Redis/BullMQ, the engines, the LLM and the grounding
 * cache. Clients are cheap to build (engines connect on first use), so each app gets all.
 */
@Global()
@Module({})
export class WorkerCoreModule {
  static forRoot(config: AppConfig, options: WorkerCoreOptions = {}): DynamicModule {
    return {
      module: WorkerCoreModule,
      imports: [ConfigModule.forRoot(config), InfraModule.forRoot(config)],
      providers: [
        { provide: Engines, useFactory: () => new Engines(config) },
        EnginesCloser,
        { provide: LLM_CLIENT, useFactory: () => createLlmClient(config) },
        { provide: WORKER_CORE_OPTIONS, useValue: options },
        LlmProviderLifecycle,
        {
          // The temp pipelines on the engines, for the runner, turn control and the janitor.
          provide: TMP_PIPELINES,
          inject: [Engines],
          useFactory: (engines: Engines): TmpPipelineLedger => ({
            list: async (target) =>
              engines.profile(target).streaming ? ((await engines.for(target).listTmpPipelines?.()) ?? []) : [],
            delete: (target, tmpId) =>
              engines.profile(target).streaming ? engines.for(target).cleanup(tmpId) : Promise.resolve(),
          }),
        },
        {
          provide: Grounding,
          inject: [Engines, CatalogCache],
          useFactory: (engines: Engines, cache: CatalogCache<Catalog>) => new Grounding(engines, cache),
        },
      ],
      exports: [Engines, LLM_CLIENT, Grounding, TMP_PIPELINES],
    };
  }
}
