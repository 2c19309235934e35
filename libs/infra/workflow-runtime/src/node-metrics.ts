import { performance } from 'node:perf_hooks';
import { UnrecoverableError, type Job } from 'bullmq';
import { observeNodeRun } from '@nl2p/metrics';
import { failureSource } from './failures';
import type { RunOutcome } from './node-runner';

/**
 * Measures one node run for the Prometheus series: call at the start, then call the returned
 * function with the run's outcome or the error it threw. A thrown error is `retried` when BullMQ
 * will deliver the job again (retryable, attempts left), else `failed`.
 */
export function startNodeRunMeasure(
  job: Pick<Job, 'attemptsMade'> & { opts: { attempts?: number } },
  node: unknown,
): (result: { outcome: RunOutcome } | { error: unknown }) => void {
  const started = performance.now();
  return (result) => {
    const seconds = (performance.now() - started) / 1000;
    if ('outcome' in result) return observeNodeRun(node, result.outcome, seconds);
    const retried = !(result.error instanceof UnrecoverableError) && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
    observeNodeRun(node, retried ? 'retried' : 'failed', seconds, failureSource(result.error));
  };
}
