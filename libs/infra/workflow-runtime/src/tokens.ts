import type { TargetKind } from '@nl2p/envelope';

/** Injection tokens of the infrastructure module (kept apart to avoid import cycles). */
export const REDIS = Symbol('REDIS');
export const SESSION_STORE = Symbol('SESSION_STORE');
/** Optional {@link TmpPipelineLedger}: provided where the engines are at hand (every worker). */
export const TMP_PIPELINES = Symbol('TMP_PIPELINES');

/**
 * The temp pipelines on the engines, the one view of them the runner, turn control and the
 * janitor share: which exist, and deleting one. Targets that validate without creating anything
 * (the SQL ones) list none.
 */
export interface TmpPipelineLedger {
  /** The temp pipeline ids the target's engine stores (every deployment's). */
  list(target: TargetKind): Promise<string[]>;
  /** Deletes a temp pipeline; a missing one is fine. Refuses ids without the temp prefix. */
  delete(target: TargetKind, tmpId: string): Promise<void>;
}
