import { isTmpPipelineId, TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { ManagerClient, ManagerError } from '@nl2p/engine';

export const TMP_PIPELINES = Symbol('TMP_PIPELINES');

/** The janitor's view of the engine: pipeline ids, and deleting temp ones. */
export interface TmpPipelines {
  /** Every pipeline id the engine stores (the caller keeps only temp ones). */
  list(): Promise<string[]>;
  /** Deletes a temp pipeline; a missing one is fine. Refuses ids without the temp prefix. */
  delete(id: string): Promise<void>;
}

/** {@link TmpPipelines} over the veloFlux Manager (temp pipelines exist on veloFlux only). */
export class ManagerTmpPipelines implements TmpPipelines {
  constructor(private readonly client: ManagerClient) {}

  async list(): Promise<string[]> {
    return (await this.client.listPipelines()).map((p) => p.id);
  }

  async delete(id: string): Promise<void> {
    if (!isTmpPipelineId(id)) {
      throw new Error(`refusing to delete pipeline ${JSON.stringify(id)}: temp ids start with ${TMP_PIPELINE_PREFIX}`);
    }
    try {
      await this.client.deletePipeline(id);
    } catch (err) {
      if (err instanceof ManagerError && err.status === 404) return;
      throw err;
    }
  }
}
