import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { WorkerCoreModule } from '@nl2p/nodes';
import { ValidatorWorker } from './validator.worker';

@Module({})
export class ValidatorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ValidatorModule, imports: [WorkerCoreModule.forRoot(config)], providers: [ValidatorWorker] };
  }
}
