import type { TargetKind } from '@nl2p/envelope';

/** Injection tokens of the infrastructure module (kept apart to avoid import cycles). */
export const REDIS = Symbol('REDIS');
export const SESSION_STORE = Symbol('SESSION_STORE');
/** Optional {@link TmpPipelineReaper}: provided where an engine is at hand (the workers). */
export const TMP_REAPER = Symbol('TMP_REAPER');

/** Deletes a temp pipeline of a session's target; a missing one is fine. */
export interface TmpPipelineReaper {
  reap(target: TargetKind, tmpId: string): Promise<void>;
}
