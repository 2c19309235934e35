import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { JanitorJob, QueueName, type ReapJobData } from '@nl2p/graph';
import { JanitorService, type SweepReport } from './janitor.service';

export const SWEEP_SCHEDULER_ID = 'janitor-sweep';

/**
 * Runs the janitor's jobs: the periodic `sweep` (a BullMQ job scheduler: one Redis record
 * however many replicas upsert it, each run one job taken by one worker) and on-demand `reap`
 * jobs (temp pipelines of a turn that was cancelled or failed while the engine was down).
 */
@Processor(QueueName.Janitor)
export class JanitorWorker extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(JanitorWorker.name);

  constructor(
    @InjectQueue(QueueName.Janitor) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly janitor: JanitorService,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    // Reaps must not wait behind a long sweep; sweeps never overlap anyway (the sweep lock).
    this.worker.concurrency = 4;
    await this.queue.upsertJobScheduler(
      SWEEP_SCHEDULER_ID,
      { every: this.config.janitor.sweepEveryMs },
      { name: JanitorJob.Sweep, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
    this.logger.log({
      msg: 'janitor scheduled',
      every_ms: this.config.janitor.sweepEveryMs,
      replica: this.janitor.replica,
    });
  }

  async process(job: Job): Promise<SweepReport | string[] | null> {
    switch (job.name as JanitorJob) {
      case JanitorJob.Sweep:
        return this.janitor.sweep(`scheduled ${job.id ?? ''}`.trim());
      case JanitorJob.Reap:
        return this.janitor.reap(job.data as ReapJobData);
      default:
        this.logger.warn({ msg: 'unknown janitor job', name: job.name, id: job.id });
        return null;
    }
  }
}
