import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { WorkerCoreModule } from '@nl2p/nodes';
import { JanitorService } from './janitor.service';
import { JanitorWorker } from './janitor.worker';

@Module({})
export class JanitorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: JanitorModule,
      // The janitor queue's producer comes with the (global) infrastructure module, the temp
      // pipeline ledger with the worker core.
      imports: [WorkerCoreModule.forRoot(config)],
      providers: [JanitorService, JanitorWorker],
      exports: [JanitorService],
    };
  }
}
