import { SERVICES, type ServiceName } from '@nl2p/launcher';

/** The services that run workflow nodes: each serves its probes and `/metrics` on a port of its own. */
export const WORKERS = SERVICES.filter((s): s is Exclude<ServiceName, 'gateway'> => s !== 'gateway');
export type WorkerName = (typeof WORKERS)[number];

/**
 * Each worker's probe and metrics port under the start command: from `METRICS_PORT` when set,
 * else right after the gateway's, one each in a fixed order so the banner and a scrape config
 * can name them. Without this the node, LLM and engine series exist only where a deployment sets
 * the port (compose, Kubernetes).
 */
export function workerMetricsPorts(gatewayPort: number, firstPort?: number): Record<WorkerName, number> {
  const base = firstPort ?? gatewayPort + 1;
  return Object.fromEntries(WORKERS.map((name, i) => [name, base + i])) as Record<WorkerName, number>;
}
