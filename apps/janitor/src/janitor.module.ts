import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import type { AppConfig } from '@nl2p/config';
import { QueueName } from '@nl2p/graph';
import { WorkerCoreModule } from '@nl2p/nodes';
import { JanitorWorker } from './janitor.worker';

@Module({})
export class JanitorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: JanitorModule,
      imports: [WorkerCoreModule.forRoot(config), BullModule.registerQueue({ name: QueueName.Janitor })],
      providers: [JanitorWorker],
    };
  }
}
