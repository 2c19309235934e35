import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { ManagerClient, VelofluxTarget } from '@nl2p/engine';

/** What the engine answered for a reference SQL: its plan, or why it refused it. */
export type ReferencePlan = { ok: true; explain: string } | { ok: false; error: string };

/**
 * Asks the same veloFlux Manager the product validates against for its plan of each reference
 * SQL: a temp pipeline (the product's prefix, so a janitor sweeps it if this process dies), its
 * explain, and its deletion. A reference the engine refuses is a fault of the eval set, reported
 * with the engine's words rather than scored against.
 */
export class ReferencePlans {
  private readonly target: VelofluxTarget;

  constructor(managerUrl: string) {
    this.target = new VelofluxTarget(new ManagerClient({ baseUrl: managerUrl }));
  }

  async planOf(itemId: string, sql: string): Promise<ReferencePlan> {
    const tmpId = `${TMP_PIPELINE_PREFIX}evalref_${itemId.replace(/[^a-z0-9]/gi, '_')}`;
    try {
      const verdict = await this.target.validate(sql, tmpId, { type: 'nop', props: {} });
      if (!verdict.ok) return { ok: false, error: verdict.error };
      return { ok: true, explain: await this.target.explain(tmpId) };
    } finally {
      await this.target.cleanup(tmpId);
    }
  }
}
