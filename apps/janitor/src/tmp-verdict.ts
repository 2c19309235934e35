import type { Envelope } from '@nl2p/envelope';
import { ownsTmpPipeline, parseTmpPipelineId, type TmpPipelineOwner } from '@nl2p/graph';

/** Why a sweep deletes a temp pipeline (or a dry run's stream). */
export type TmpDeletionReason = 'unowned' | 'too_old' | 'foreign_too_old';

/** What one sweep does with one listed temp name. */
export type TmpVerdict =
  | { delete: TmpDeletionReason }
  /** `owned`: an in-flight turn of ours needs it; `foreign`: possibly another deployment's, still young. */
  | { keep: 'owned' | 'foreign' }
  /** The prefix, but in no form the product has ever made: not ours to judge, never touched. */
  | { ignore: true };

export interface TmpFacts {
  /** The name the engine listed (a pipeline, or a dry run's input stream). */
  id: string;
  /** Since this deployment's janitor first saw it listed. */
  ageMs: number;
  deploymentId: string;
  /** The checkpoint of the session the name carries, from this deployment's store (null: none). */
  session: Envelope | null;
  tmpMaxAgeMs: number;
  foreignTmpMaxAgeMs: number;
}

/**
 * The sweep's decision for one temp name. Every form the product has made parses (see
 * {@link parseTmpPipelineId}); anything else under the prefix is left alone, so a pipeline a person
 * happened to name with it is never deleted.
 *
 * An id of the older form names no deployment: it is ours when our store knows its session, and
 * otherwise may be a turn in flight on another deployment sharing the Manager (one still running
 * an older release), so it waits out the foreign limit like any other deployment's id.
 */
export function judgeTmpName(facts: TmpFacts): TmpVerdict {
  const owner = parseTmpPipelineId(facts.id);
  if (!owner) return { ignore: true };
  if (isForeign(owner, facts)) {
    return facts.ageMs < facts.foreignTmpMaxAgeMs ? { keep: 'foreign' } : { delete: 'foreign_too_old' };
  }
  const owned = ownsTmpPipeline(facts.session, facts.id);
  if (owned && facts.ageMs < facts.tmpMaxAgeMs) return { keep: 'owned' };
  return { delete: owned ? 'too_old' : 'unowned' };
}

/** The session a name's owner must be looked up for: only names that may be this deployment's. */
export function sessionToLookUp(id: string, deploymentId: string): string | null {
  const owner = parseTmpPipelineId(id);
  if (!owner || (owner.deployment && owner.deployment !== deploymentId)) return null;
  return owner.sessionId;
}

function isForeign(owner: TmpPipelineOwner, facts: TmpFacts): boolean {
  if (owner.deployment) return owner.deployment !== facts.deploymentId;
  return facts.session === null;
}
