import { TMP_PIPELINE_PREFIX, tmpPipelineId, type Envelope, type NodeName } from '@nl2p/envelope';

/** What a temp pipeline id says about the node run that created it. */
export interface TmpPipelineOwner {
  sessionId: string;
  turnId: number;
  attempt: number;
}

/** Nodes during which the attempt's temp pipeline legitimately exists (created, explained, deleted). */
export const TMP_PIPELINE_NODES: ReadonlySet<NodeName> = new Set<NodeName>(['validate', 'explain', 'cleanup']);

const TMP_ID = new RegExp(`^${TMP_PIPELINE_PREFIX}([0-9a-f]{32})_(\\d{1,9})_(\\d{1,9})$`);

/**
 * Parses `__nl2pipeline_tmp__{session}_{turn}_{attempt}`; `null` for anything else, including
 * ids that carry the prefix but were not made by {@link tmpPipelineId} (those are still ours to
 * sweep: the prefix is reserved for this product).
 */
export function parseTmpPipelineId(id: string): TmpPipelineOwner | null {
  const m = TMP_ID.exec(id);
  if (!m) return null;
  return { sessionId: m[1], turnId: Number(m[2]), attempt: Number(m[3]) };
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
  if (e.node && TMP_PIPELINE_NODES.has(e.node)) ids.add(tmpPipelineId(e.session_id, e.turn_id, e.validation.attempt));
  return [...ids];
}
