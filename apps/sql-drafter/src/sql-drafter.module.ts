import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { WorkerCoreModule } from '@nl2p/nodes';
import { SqlDrafterWorker } from './sql-drafter.worker';

@Module({})
export class SqlDrafterModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SqlDrafterModule,
      imports: [WorkerCoreModule.forRoot(config, { usesLlm: true })],
      providers: [SqlDrafterWorker],
    };
  }
}
