import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { WorkerCoreModule } from '@nl2p/nodes';
import { ExplainerWorker } from './explainer.worker';

@Module({})
export class ExplainerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ExplainerModule, imports: [WorkerCoreModule.forRoot(config)], providers: [ExplainerWorker] };
  }
}
