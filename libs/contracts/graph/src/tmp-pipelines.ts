import {
  DRY_RUN_SUFFIX,
  TMP_PIPELINE_PREFIX,
  dryRunIdOf,
  tmpPipelineIdOf,
  type Envelope,
  type NodeName,
} from '@nl2p/envelope';

/** What a temp pipeline id says about the node run that created it. */
export interface TmpPipelineOwner {
  /** The deployment that made it; null for ids of the older form, which carry none. */
  deployment: string | null;
  sessionId: string;
  turnId: number;
  attempt: number;
  /** The attempt's dry run (its input stream and pipeline), not its validated temp pipeline. */
  dryRun: boolean;
}

/** Nodes during which the attempt's temp pipeline legitimately exists (created, explained, deleted). */
export const TMP_PIPELINE_NODES: ReadonlySet<NodeName> = new Set<NodeName>(['validate', 'explain', 'cleanup']);

const TMP_ID = new RegExp(
  `^${TMP_PIPELINE_PREFIX}(?:([0-9a-f]{8})_)?([0-9a-f]{32})_(\\d{1,9})_(\\d{1,9})(${DRY_RUN_SUFFIX})?$`,
);

/**
 * Parses `__nl2pipeline_tmp__[{deployment}_]{session}_{turn}_{attempt}[_dry]`; `null` for anything else, including
 * ids that carry the prefix but were not made by {@link tmpPipelineIdOf} (those are still ours to
 * sweep: the prefix is reserved for this product).
 */
export function parseTmpPipelineId(id: string): TmpPipelineOwner | null {
  const m = TMP_ID.exec(id);
  if (!m) return null;
  return {
    deployment: m[1] ?? null,
    sessionId: m[2],
    turnId: Number(m[3]),
    attempt: Number(m[4]),
    dryRun: m[5] !== undefined,
  };
}

/**
 * True when the checkpoint `e` is an in-flight turn that still needs the temp pipeline `id`: the
 * turn is running, it is the turn that made the id, and either the checkpoint records the id or
 * the turn stands at validate/explain/cleanup of the attempt that made it (validate records the
 * id before creating, but a checkpoint written by an older release might not).
 */
export function ownsTmpPipeline(e: Envelope | null, id: string): boolean {
  if (!e || e.status !== 'running') return false;
  const owner = parseTmpPipelineId(id);
  if (!owner || owner.sessionId !== e.session_id || owner.turnId !== e.turn_id) return false;
  if (e.validation.tmp_pipeline_id === id) return true;
  return !!e.node && TMP_PIPELINE_NODES.has(e.node) && e.validation.attempt === owner.attempt;
}

/**
 * Temp pipelines a checkpoint may have left behind: the one it records, and the one its current
 * attempt would create when it stands at a node that creates or uses one.
 */
export function tmpPipelinesOf(e: Envelope): string[] {
  const ids = new Set<string>();
  if (e.validation.tmp_pipeline_id) ids.add(e.validation.tmp_pipeline_id);
  if (e.node && TMP_PIPELINE_NODES.has(e.node)) ids.add(tmpPipelineIdOf(e));
  // A dry run lives and dies inside validate; one a crash left behind is found here.
  if (e.node === 'validate') ids.add(dryRunIdOf(e));
  return [...ids];
}
