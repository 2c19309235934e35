import { TMP_PIPELINE_PREFIX, type NodeName } from './envelope';

/**
 * Deterministic BullMQ job id for one node run. The same session/turn/node/attempt always maps to
 * the same id, so a re-delivered or re-enqueued job is deduplicated by BullMQ. BullMQ rejects `:`
 * in custom ids, so the separator is `.` and any `:` in the parts is replaced.
 */
export function jobId(sessionId: string, turnId: number, node: NodeName, attempt: number): string {
  return [sessionId, `t${turnId}`, node, `a${attempt}`].join('.').replace(/:/g, '_');
}

/** `__nl2pipeline_tmp__{session}_{turn}_{attempt}` as ARCHITECTURE §3 names it. */
export function tmpPipelineId(sessionId: string, turnId: number, attempt: number): string {
  return `${TMP_PIPELINE_PREFIX}${sessionId}_${turnId}_${attempt}`;
}

export function isTmpPipelineId(id: string): boolean {
  return id.startsWith(TMP_PIPELINE_PREFIX);
}

/** Session ids are server-generated: 32 lowercase hex chars, safe in keys, paths and pipeline ids. */
export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;
