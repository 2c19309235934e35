import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName } from '@nl2p/graph';

export const SWEEP_SCHEDULER_ID = 'janitor-sweep';
export const SWEEP_EVERY_MS = 60_000;

/**
 * Schedules the periodic sweep. A BullMQ job scheduler is one Redis record however many janitor
 * replicas upsert it, and each run is one job taken by one worker, so only one replica sweeps at
 * a time. The sweeps themselves (leaked temp pipelines, stuck turns, idle sessions) are issue 4;
 * until then a run only records that it happened.
 */
@Processor(QueueName.Janitor)
export class JanitorWorker extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(JanitorWorker.name);

  constructor(@InjectQueue(QueueName.Janitor) private readonly queue: Queue) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: SWEEP_EVERY_MS }, { name: 'sweep' });
  }

  async process(): Promise<{ swept: number }> {
    this.logger.log({ msg: 'sweep run', swept: 0 });
    return { swept: 0 };
  }
}
