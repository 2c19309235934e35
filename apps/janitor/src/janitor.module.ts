import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@nl2p/config';
import { ManagerClient } from '@nl2p/engine';
import { WorkerCoreModule } from '@nl2p/nodes';
import { recordEngineCall } from '@nl2p/telemetry';
import { JanitorService } from './janitor.service';
import { JanitorWorker } from './janitor.worker';
import { ManagerTmpPipelines, TMP_PIPELINES } from './tmp-pipelines';

@Module({})
export class JanitorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: JanitorModule,
      // The janitor queue's producer comes with the (global) infrastructure module.
      imports: [WorkerCoreModule.forRoot(config)],
      providers: [
        {
          provide: TMP_PIPELINES,
          useFactory: () =>
            new ManagerTmpPipelines(
              new ManagerClient({
                baseUrl: config.veloflux.url,
                timeoutMs: config.veloflux.timeoutMs,
                retries: config.veloflux.retries,
                backoffMs: config.veloflux.backoffMs,
                onCall: recordEngineCall,
              }),
            ),
        },
        JanitorService,
        JanitorWorker,
      ],
      exports: [JanitorService],
    };
  }
}
