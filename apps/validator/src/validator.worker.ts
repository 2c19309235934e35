import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { QueueName } from '@nl2p/graph';
import { Engines, Grounding, validatorNodes } from '@nl2p/nodes';
import { WORKER_OPTIONS, WorkflowWorker, type NodeHandlers } from '@nl2p/workflow-runtime';

/** Grounding reads, the request's reading (and its plan compiled when trusted), local prevalidation and engine validation (temp pipelines). */
@Processor(QueueName.Validator, WORKER_OPTIONS)
export class ValidatorWorker extends WorkflowWorker {
  protected readonly queue = QueueName.Validator;
  protected readonly handlers: NodeHandlers;

  constructor(engines: Engines, grounding: Grounding, @Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.handlers = validatorNodes({
      engines,
      grounding,
      reading: {
        linking: config.workflow.linking,
        mode: config.workflow.draftMode,
        trustLinks: config.workflow.planTrustLinks,
      },
    });
  }
}
