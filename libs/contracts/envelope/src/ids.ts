import { TMP_PIPELINE_PREFIX, type NodeName } from './envelope';

/**
 * Deterministic BullMQ job id for one node run. The same session/turn/node/attempt always maps to
 * the same id, so a re-delivered or re-enqueued job is deduplicated by BullMQ. BullMQ rejects `:`
 * in custom ids, so the separator is `.` and any `:` in the parts is replaced.
 */
export function jobId(sessionId: string, turnId: number, node: NodeName, attempt: number): string {
  return [sessionId, `t${turnId}`, node, `a${attempt}`].join('.').replace(/:/g, '_');
}

/**
 * `__nl2pipeline_tmp__{deployment}_{session}_{turn}_{attempt}`: ARCHITECTURE §3's id with the
 * deployment that made it (§7), so a janitor sharing a Manager with other deployments can tell
 * its own from theirs. Without a deployment (sessions of older releases) the §3 form.
 */
export function tmpPipelineId(sessionId: string, turnId: number, attempt: number, deployment = ''): string {
  return `${TMP_PIPELINE_PREFIX}${deployment ? `${deployment}_` : ''}${sessionId}_${turnId}_${attempt}`;
}

/** The temp pipeline id of the envelope's current attempt. */
export function tmpPipelineIdOf(e: {
  deployment: string;
  session_id: string;
  turn_id: number;
  validation: { attempt: number };
}): string {
  return tmpPipelineId(e.session_id, e.turn_id, e.validation.attempt, e.deployment);
}

export function isTmpPipelineId(id: string): boolean {
  return id.startsWith(TMP_PIPELINE_PREFIX);
}

/** Session ids are server-generated: 32 lowercase hex chars, safe in keys, paths and pipeline ids. */
export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;
