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

/**
 * What a dry run of an attempt's candidate creates on a streaming engine (its input stream and
 * its pipeline, under one name): the attempt's temp id with this suffix, so the same sweeps that
 * find the attempt's temp pipeline find these.
 */
export const DRY_RUN_SUFFIX = '_dry';

/** The dry run's temp name of the envelope's current attempt. */
export function dryRunIdOf(e: Parameters<typeof tmpPipelineIdOf>[0]): string {
  return `${tmpPipelineIdOf(e)}${DRY_RUN_SUFFIX}`;
}

/** A dry run's temp name: a stream as well as a pipeline go by it. */
export function isDryRunId(id: string): boolean {
  return isTmpPipelineId(id) && id.endsWith(DRY_RUN_SUFFIX);
}

export function isTmpPipelineId(id: string): boolean {
  return id.startsWith(TMP_PIPELINE_PREFIX);
}

/** Session ids are server-generated: 32 lowercase hex chars, safe in keys, paths and pipeline ids. */
export const SESSION_ID_PATTERN = /^[0-9a-f]{32}$/;
