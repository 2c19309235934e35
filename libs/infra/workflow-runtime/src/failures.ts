import { UnrecoverableError } from 'bullmq';
import { failureKindOf, type FailureKind } from '@nl2p/envelope';

/** Where a failure came from, for a message that says what was unavailable. */
export type FailureSource = 'engine' | 'llm' | 'other';

export function failureSource(err: unknown): FailureSource {
  const kind = failureKindOf(err);
  if (kind === null) return 'other';
  return kind.startsWith('engine_') ? 'engine' : 'llm';
}

/**
 * True when another delivery of the job may succeed: outages, the Manager's busy lock, LLM
 * 429/5xx/timeouts, and anything unclassified (a Redis blip, a bug that a restart fixes). A
 * rejection (the engine refusing, an LLM call failed for good) fails the same way every time.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof UnrecoverableError) return false;
  switch (failureKindOf(err)) {
    case 'engine_unavailable':
    case 'engine_busy':
    case 'llm_unavailable':
    case null:
      return true;
    case 'engine_refused':
    case 'llm_refused':
      return false;
  }
}

/**
 * The message the person sees when a node fails for good: which node, what was unavailable or
 * refused, and the underlying error, without secrets.
 */
export function describeFailure(node: string, err: unknown, secrets: readonly string[] = []): string {
  const detail = err instanceof Error ? err.message : String(err);
  return redact(`${node}: ${WHAT_FAILED[failureKindOf(err) ?? 'unclassified']}: ${detail}`, secrets);
}

const WHAT_FAILED: Record<FailureKind | 'unclassified', string> = {
  engine_unavailable: 'the engine (veloFlux Manager) is unavailable',
  engine_busy: 'the engine (veloFlux Manager) is busy',
  engine_refused: 'the engine refused the request',
  llm_unavailable: 'the LLM is unavailable',
  llm_refused: 'the LLM call failed',
  unclassified: 'it failed',
};

/** Removes secrets and URL credentials (`scheme://user:pass@host`) from a message. */
export function redact(message: string, secrets: readonly string[] = []): string {
  let out = message.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, '$1[redacted]@');
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** Thrown by a node's checkpoint, or seen as an aborted signal, when someone else moved the turn. */
export class SupersededError extends Error {
  override readonly name = 'SupersededError';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
