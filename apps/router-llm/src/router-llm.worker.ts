import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { QueueName } from '@nl2p/graph';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import type { LlmClient } from '@nl2p/llm';
import { answerNodes, compactPrompts, LLM_CLIENT, routerNodes } from '@nl2p/nodes';
import { WORKER_OPTIONS, WorkflowWorker, type NodeHandlers } from '@nl2p/workflow-runtime';

/**
 * Routes each new request by its intent (the reading's when it decided one, else the router
 * model's), and words answers over sources.
 */
@Processor(QueueName.RouterLlm, WORKER_OPTIONS)
export class RouterLlmWorker extends WorkflowWorker {
  protected readonly queue = QueueName.RouterLlm;
  protected readonly handlers: NodeHandlers;

  constructor(@Inject(LLM_CLIENT) llm: LlmClient, @Inject(APP_CONFIG) config: AppConfig) {
    super();
    this.handlers = {
      ...routerNodes({
        llm,
        compactPrompts: compactPrompts(config),
        linking: config.workflow.linking,
      }),
      ...answerNodes({ llm, writer: config.workflow.answerWriter }),
    };
  }
}
