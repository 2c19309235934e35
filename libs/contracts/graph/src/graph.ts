import type { Envelope, NodeName } from '@nl2p/envelope';
import { QueueName, type WorkflowQueue } from './queues';

/** The turn stops: with `envelope.interrupt` set it waits for the person, otherwise it is done. */
export const END = 'END' as const;
export type Next = NodeName | typeof END;

/** Retry policy of a node's job, declared here once so no worker hard-codes its own. */
export interface NodeJobOptions {
  attempts: number;
  backoffMs: number;
}

export interface GraphNode {
  queue: WorkflowQueue;
  jobOptions: NodeJobOptions;
  /** Pure edge function: the state the node produced → where the turn goes next. */
  next: (envelope: Envelope) => Next;
}

// LLM calls fail transiently (429, 5xx, timeouts): more attempts, longer backoff. The LLM client
// already retries each call, so these are the outer layer for a worker that died or a long outage.
const LLM_JOB: NodeJobOptions = { attempts: 3, backoffMs: 2_000 };
// Engine calls are idempotent by deterministic temp ids; the engine client retries 5xx itself.
const ENGINE_JOB: NodeJobOptions = { attempts: 3, backoffMs: 1_000 };
// Pure computation: a failure is a bug, retrying cannot help.
const PURE_JOB: NodeJobOptions = { attempts: 1, backoffMs: 0 };

/**
 * After a failed check: another revision while the budget lasts, else give up. SQL the person
 * wrote is theirs: a model never rewrites it behind their back, so its failure is told at once.
 */
export const reviseOrGiveUp = (e: Envelope): Next =>
  e.user_input.sql === undefined && e.validation.attempt < e.validation.max_attempts ? 'revise_sql' : 'give_up';

/**
 * After a draft or revision: a question stops the turn; a plan that could not be checked or
 * compiled already failed locally (no SQL to check), so it goes to repair; else the local check.
 */
const afterDraft = (e: Envelope): Next =>
  e.interrupt ? END : e.validation.error_stage === 'local' && e.validation.error ? reviseOrGiveUp(e) : 'prevalidate';

/**
 * The request's reading is complete and trusted (see `Reading.trusted`): no model is asked, the
 * validator compiles its plan. Only a reading of the request this turn serves counts.
 */
export function readingTrusted(e: Envelope): boolean {
  return !!e.reading && e.reading.trusted && !!e.reading.plan && e.reading.request === e.request;
}

/** The trusted reading's plan reads from the stream the turn settled on: compile it. */
const compilesReading = (e: Envelope): boolean => readingTrusted(e) && e.reading?.plan?.source === e.active_stream;

/** The whole workflow (ARCHITECTURE §3). Every service imports this; none decides on its own. */
export const GRAPH: Readonly<Record<NodeName, GraphNode>> = {
  init_session: { queue: QueueName.Validator, jobOptions: ENGINE_JOB, next: () => 'link' },
  // The request read once (the linker needs the cached catalog's values, which an expired cache
  // reloads from the engine). A trusted reading that settled the intent (a query) and the plan
  // leaves the router nothing to decide. A reply read here may ask again, or drop the request.
  link: {
    queue: QueueName.Validator,
    jobOptions: ENGINE_JOB,
    next: (e) =>
      e.interrupt || e.answer
        ? END
        : e.sources === 'all'
          ? 'run_sources'
          : e.intent === 'nl2sql' && (readingTrusted(e) || e.answers.length > 0)
            ? 'ensure_active_stream'
            : 'route_intent',
  },
  route_intent: {
    queue: QueueName.RouterLlm,
    jobOptions: LLM_JOB,
    next: (e) => {
      if (e.interrupt) return END;
      switch (e.intent) {
        case 'list_streams':
          return 'list_streams';
        case 'describe_stream':
          return 'describe_stream';
        case 'nl2sql':
          return 'ensure_active_stream';
        case 'ask_user':
        case null:
          return END;
      }
    },
  },
  list_streams: { queue: QueueName.Validator, jobOptions: ENGINE_JOB, next: () => END },
  describe_stream: { queue: QueueName.Validator, jobOptions: ENGINE_JOB, next: () => END },
  ensure_active_stream: {
    queue: QueueName.Validator,
    jobOptions: ENGINE_JOB,
    next: (e) => (e.interrupt ? END : compilesReading(e) ? 'compile_plan' : 'draft_sql'),
  },
  draft_sql: { queue: QueueName.SqlDrafter, jobOptions: LLM_JOB, next: (e) => afterDraft(e) },
  // The trusted reading's plan, checked and compiled on the validator: SQL for the local check, a
  // local failure for repair, or (auto mode, nothing compiled) the drafter as if never trusted.
  compile_plan: {
    queue: QueueName.Validator,
    jobOptions: PURE_JOB,
    next: (e) =>
      e.interrupt || e.draft.sql || (e.validation.error_stage === 'local' && e.validation.error)
        ? afterDraft(e)
        : 'draft_sql',
  },
  prevalidate: {
    queue: QueueName.Validator,
    jobOptions: PURE_JOB,
    next: (e) => (e.validation.error ? reviseOrGiveUp(e) : 'validate'),
  },
  validate: {
    queue: QueueName.Validator,
    jobOptions: ENGINE_JOB,
    next: (e) => (e.validation.ok ? 'explain' : reviseOrGiveUp(e)),
  },
  revise_sql: { queue: QueueName.SqlDrafter, jobOptions: LLM_JOB, next: (e) => afterDraft(e) },
  explain: { queue: QueueName.Explainer, jobOptions: ENGINE_JOB, next: () => 'cleanup' },
  cleanup: { queue: QueueName.Explainer, jobOptions: ENGINE_JOB, next: () => 'confirm' },
  confirm: { queue: QueueName.Explainer, jobOptions: PURE_JOB, next: () => END },
  give_up: { queue: QueueName.Explainer, jobOptions: PURE_JOB, next: () => END },
  // Sessions over all SQL sources: the request's plan split into parts, each run on its own
  // source, joined in DuckDB, and answered in words; a question the split raises stops the turn.
  // The parts are read-only queries, so a source that is briefly down is retried as an engine call.
  run_sources: {
    queue: QueueName.Validator,
    jobOptions: ENGINE_JOB,
    next: (e) => (e.answer?.kind === 'message' && !e.interrupt && e.explain.preview ? 'word_answer' : END),
  },
  // The answer in words: the template's sentence is already there; a server model may word it
  // better (router-llm, as a small fast call), and its sentence is kept only when every number in
  // it is in the rows. Never fails the turn: on any model failure the template's sentence stays.
  word_answer: { queue: QueueName.RouterLlm, jobOptions: LLM_JOB, next: () => END },
};

/** Nodes a given queue's consumer must be able to run. */
export function nodesOf(queue: WorkflowQueue): NodeName[] {
  return (Object.keys(GRAPH) as NodeName[]).filter((n) => GRAPH[n].queue === queue);
}
