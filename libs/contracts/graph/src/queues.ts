/**
 * Inbound queues, one per worker app. The value equals the consuming app's name, so a queue
 * name alone tells which service to scale when it backs up.
 */
export enum QueueName {
  RouterLlm = 'router-llm',
  SqlDrafter = 'sql-drafter',
  Validator = 'validator',
  Explainer = 'explainer',
  Janitor = 'janitor',
}

export const WORKFLOW_QUEUES = [
  QueueName.RouterLlm,
  QueueName.SqlDrafter,
  QueueName.Validator,
  QueueName.Explainer,
] as const;
export type WorkflowQueue = (typeof WORKFLOW_QUEUES)[number];

/** Jobs on the janitor queue: the scheduled sweep, and on-demand deletion of known leftovers. */
export enum JanitorJob {
  Sweep = 'sweep',
  Reap = 'reap',
}

/** A `reap` job: temp pipelines a turn that ended (failed, cancelled) may have left behind. */
export interface ReapJobData {
  session_id: string;
  turn_id: number;
  target: string;
  tmp_ids: string[];
  reason: string;
}
