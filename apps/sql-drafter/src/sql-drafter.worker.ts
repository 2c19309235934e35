import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { QueueName } from '@nl2p/graph';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import type { LlmClient } from '@nl2p/llm';
import { compactPrompts, drafterNodes, Engines, Grounding, LLM_CLIENT } from '@nl2p/nodes';
import { WORKER_OPTIONS, WorkflowWorker, type NodeHandlers } from '@nl2p/workflow-runtime';

/** Drafts SQL (streamed deltas) and revises it from the engine's errors or the person's feedback. */
@Processor(QueueName.SqlDrafter, WORKER_OPTIONS)
export class SqlDrafterWorker extends WorkflowWorker {
  protected readonly queue = QueueName.SqlDrafter;
  protected readonly handlers: NodeHandlers;

  constructor(
    @Inject(LLM_CLIENT) llm: LlmClient,
    grounding: Grounding,
    engines: Engines,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.handlers = drafterNodes({
      llm,
      grounding,
      compactPrompts: compactPrompts(config),
      planning: {
        mode: config.workflow.draftMode,
        trustLinks: config.workflow.planTrustLinks,
        modelChooses: config.workflow.modelChooses,
        profileOf: (e) => engines.profile(e.target),
      },
    });
  }
}
