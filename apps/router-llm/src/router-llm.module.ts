import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { WorkerCoreModule } from '@nl2p/nodes';
import { RouterLlmWorker } from './router-llm.worker';

@Module({})
export class RouterLlmModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RouterLlmModule,
      imports: [WorkerCoreModule.forRoot(config, { usesLlm: true })],
      providers: [RouterLlmWorker],
    };
  }
}
