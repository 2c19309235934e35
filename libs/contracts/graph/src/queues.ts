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
