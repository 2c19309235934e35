import { Processor } from '@nestjs/bullmq';
import { QueueName } from '@nl2p/graph';
import { Engines, explainerNodes } from '@nl2p/nodes';
import { WORKER_OPTIONS, WorkflowWorker, type NodeHandlers } from '@nl2p/workflow-runtime';

/** The engine's plan, temp pipeline cleanup, the pipeline request and the confirm interrupt. */
@Processor(QueueName.Explainer, WORKER_OPTIONS)
export class ExplainerWorker extends WorkflowWorker {
  protected readonly queue = QueueName.Explainer;
  protected readonly handlers: NodeHandlers;

  constructor(engines: Engines) {
    super();
    this.handlers = explainerNodes({ engines });
  }
}
