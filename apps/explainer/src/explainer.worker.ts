import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import type { EngineTarget } from '@nl2p/engine';
import { QueueName } from '@nl2p/graph';
import { ENGINE, explainerNodes } from '@nl2p/nodes';
import { WORKER_OPTIONS, WorkflowWorker, type NodeHandlers } from '@nl2p/queue';

/** The engine's plan, temp pipeline cleanup, the pipeline request and the confirm interrupt. */
@Processor(QueueName.Explainer, WORKER_OPTIONS)
export class ExplainerWorker extends WorkflowWorker {
  protected readonly queue = QueueName.Explainer;
  protected readonly handlers: NodeHandlers;

  constructor(@Inject(ENGINE) engine: EngineTarget) {
    super();
    this.handlers = explainerNodes({ engine });
  }
}
