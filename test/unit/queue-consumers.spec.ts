import { WORKFLOW_QUEUES, QueueName } from '@nl2p/graph';
import { ExplainerWorker } from '../../apps/explainer/src/explainer.worker';
import { JanitorWorker } from '../../apps/janitor/src/janitor.worker';
import { RouterLlmWorker } from '../../apps/router-llm/src/router-llm.worker';
import { SqlDrafterWorker } from '../../apps/sql-drafter/src/sql-drafter.worker';
import { ValidatorWorker } from '../../apps/validator/src/validator.worker';

// @nestjs/bullmq stores the @Processor queue name under this metadata key.
const PROCESSOR_METADATA = 'bullmq:processor_metadata';

describe('queue consumers', () => {
  it('every queue has exactly one consuming service', () => {
    const workers = [ValidatorWorker, RouterLlmWorker, SqlDrafterWorker, ExplainerWorker, JanitorWorker];
    const consumed = workers.map((w) => (Reflect.getMetadata(PROCESSOR_METADATA, w) as { name: string }).name);
    expect(consumed.sort()).toEqual([...WORKFLOW_QUEUES, QueueName.Janitor].sort());
    expect(new Set(consumed).size).toBe(consumed.length);
  });
});
