import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { NodeName } from '@nl2p/envelope';

/**
 * Every Prometheus series the services export, defined once here so no service defines its own.
 * One registry per process (a service is a process); the gateway serves it at `/metrics`, each
 * worker on its small probe port (`METRICS_PORT`). Labels are bounded sets by construction: node
 * names, queue names, roles, configured model names, route templates, HTTP status codes, fixed
 * outcome words. Never a session, tenant or pipeline id.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Names the process in every series (`service="router-llm"`); set once at its start. */
export function setServiceLabel(service: string): void {
  registry.setDefaultLabels({ service });
}

/** The text format Prometheus scrapes, and its content type. */
export function metricsText(): Promise<string> {
  return registry.metrics();
}
export const METRICS_CONTENT_TYPE = registry.contentType;

// Seconds from 5 ms (an instant node) to 2 min (a slow LLM with retries).
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** How one node run ended: the runner's outcome, or a failure BullMQ will retry. */
export type NodeRunOutcome = 'advanced' | 'stale' | 'failed' | 'retried';
/** Where a retried failure came from (the runner's failure classes). */
export type RetryKind = 'llm' | 'engine' | 'other';

export const nodeDuration = new Histogram({
  name: 'nl2p_node_duration_seconds',
  help: 'Duration of one node run (one job), by node and outcome.',
  labelNames: ['node', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
export const nodeRuns = new Counter({
  name: 'nl2p_node_runs_total',
  help: 'Node runs by node and outcome: advanced (checkpointed and handed on), stale (dropped or stopped: the turn moved on), failed (for good, the turn ended failed), retried (BullMQ delivers it again).',
  labelNames: ['node', 'outcome'] as const,
  registers: [registry],
});
export const nodeRetries = new Counter({
  name: 'nl2p_node_retries_total',
  help: 'Node runs that failed and will be delivered again, by node and failure kind (llm, engine, other).',
  labelNames: ['node', 'kind'] as const,
  registers: [registry],
});
export const turnsEnded = new Counter({
  name: 'nl2p_turns_total',
  help: 'Turns that stopped, by final state: waiting (an interrupt), idle (done), failed, cancelled.',
  labelNames: ['status'] as const,
  registers: [registry],
});
export const llmCalls = new Counter({
  name: 'nl2p_llm_calls_total',
  help: 'LLM calls by role and model.',
  labelNames: ['role', 'model'] as const,
  registers: [registry],
});
export const llmTokens = new Counter({
  name: 'nl2p_llm_tokens_total',
  help: 'LLM tokens by role, model and type (input, output).',
  labelNames: ['role', 'model', 'type'] as const,
  registers: [registry],
});
export const llmRetries = new Counter({
  name: 'nl2p_llm_retries_total',
  help: 'Retries inside LLM calls (429, 5xx, timeouts), by role and model.',
  labelNames: ['role', 'model'] as const,
  registers: [registry],
});
export const llmDuration = new Histogram({
  name: 'nl2p_llm_call_duration_seconds',
  help: 'LLM call latency (retries included), by role and model.',
  labelNames: ['role', 'model'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
export const engineCalls = new Counter({
  name: 'nl2p_engine_calls_total',
  help: 'Engine (veloFlux Manager) calls by method, route template and final HTTP status ("none": no answer).',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});
export const engineRetries = new Counter({
  name: 'nl2p_engine_retries_total',
  help: 'Retries inside engine calls (outages, 5xx, the busy lock), by method and route template.',
  labelNames: ['method', 'route'] as const,
  registers: [registry],
});
export const engineDuration = new Histogram({
  name: 'nl2p_engine_call_duration_seconds',
  help: 'Engine call latency (retries included), by method and route template.',
  labelNames: ['method', 'route'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
export const catalogLookups = new Counter({
  name: 'nl2p_catalog_cache_lookups_total',
  help: "Lookups of an engine's grounding catalog in the Redis cache: hit, or miss (loaded from the engine).",
  labelNames: ['result'] as const,
  registers: [registry],
});
export const tmpPipelinesCreated = new Counter({
  name: 'nl2p_tmp_pipelines_created_total',
  help: 'Temporary validation pipelines created on the engine.',
  registers: [registry],
});
export const tmpPipelinesDeleted = new Counter({
  name: 'nl2p_tmp_pipelines_deleted_total',
  help: 'Temporary validation pipelines deleted on the engine (by the workers or the janitor).',
  registers: [registry],
});
export const tmpPipelinesSwept = new Counter({
  name: 'nl2p_tmp_pipelines_swept_total',
  help: 'Temporary pipelines the janitor deleted, by reason (unowned, too_old, foreign_too_old, reaped).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/**
 * BullMQ job states exported per queue (`getJobCounts` names, `wait` as `waiting`). No `paused`:
 * since BullMQ 6 pausing a queue only flags it and its jobs stay in the wait list.
 */
export const QUEUE_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export type QueueDepth = Record<QueueState, number>;

/** Reads the job counts of this process's queues; registered by the queue infrastructure. */
export type QueueDepthSource = () => Promise<Record<string, QueueDepth>>;
const depthSources = new Set<QueueDepthSource>();

/**
 * Registers where `nl2p_queue_jobs` reads from at scrape time (read fresh, so every replica
 * reports the same numbers and no reporter needs a timer). Returns the unregister function.
 */
export function registerQueueDepthSource(source: QueueDepthSource): () => void {
  depthSources.add(source);
  return () => depthSources.delete(source);
}

export const queueJobs = new Gauge({
  name: 'nl2p_queue_jobs',
  help: 'Jobs in each queue by state, read from Redis at scrape time. Every service reports every queue: aggregate with max by (queue, state).',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const seen = new Set<string>();
    for (const source of depthSources) {
      let depths: Record<string, QueueDepth>;
      try {
        depths = await source();
      } catch {
        // Redis is unreachable: no series rather than a failed scrape (readiness reports it).
        continue;
      }
      for (const [queue, counts] of Object.entries(depths)) {
        if (seen.has(queue)) continue;
        seen.add(queue);
        for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state]);
      }
    }
  },
});

const NODE_NAMES = new Set<string>(NodeName.options);
/** A node name from job data (untrusted), as a bounded label. */
export function nodeLabel(node: unknown): string {
  return typeof node === 'string' && NODE_NAMES.has(node) ? node : 'unknown';
}

/** One node run: its duration and outcome, and the failure kind when it will be retried. */
export function observeNodeRun(node: unknown, outcome: NodeRunOutcome, seconds: number, retryKind?: RetryKind): void {
  const labels = { node: nodeLabel(node), outcome };
  nodeDuration.observe(labels, seconds);
  nodeRuns.inc(labels);
  if (outcome === 'retried') nodeRetries.inc({ node: labels.node, kind: retryKind ?? 'other' });
}

/** A turn stopped (waiting, idle, failed, cancelled). */
export function countTurnEnd(status: string): void {
  turnsEnded.inc({ status });
}

export interface LlmCallSample {
  role: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  retries: number;
}

export function observeLlmCall(c: LlmCallSample): void {
  const labels = { role: c.role, model: c.model };
  llmCalls.inc(labels);
  llmTokens.inc({ ...labels, type: 'input' }, c.inputTokens);
  llmTokens.inc({ ...labels, type: 'output' }, c.outputTokens);
  if (c.retries > 0) llmRetries.inc(labels, c.retries);
  llmDuration.observe(labels, c.latencyMs / 1000);
}

export interface EngineCallSample {
  method: string;
  /** The route template (`/pipelines/:id`), never the path. */
  route: string;
  status: number | null;
  latencyMs: number;
  retries: number;
}

/**
 * An engine call. The services create pipelines only as temporary validation pipelines and
 * delete only those, so a successful create or delete is also counted as such.
 */
export function observeEngineCall(c: EngineCallSample): void {
  const labels = { method: c.method, route: c.route };
  engineCalls.inc({ ...labels, status: c.status === null ? 'none' : String(c.status) });
  if (c.retries > 0) engineRetries.inc(labels, c.retries);
  engineDuration.observe(labels, c.latencyMs / 1000);
  const ok = c.status !== null && c.status >= 200 && c.status < 300;
  if (ok && c.method === 'POST' && c.route === '/pipelines') tmpPipelinesCreated.inc();
  if (ok && c.method === 'DELETE' && c.route === '/pipelines/:id') tmpPipelinesDeleted.inc();
}

export function countCatalogLookup(hit: boolean): void {
  catalogLookups.inc({ result: hit ? 'hit' : 'miss' });
}

export function countTmpSwept(reason: string, count = 1): void {
  if (count > 0) tmpPipelinesSwept.inc({ reason }, count);
}
