import { UnrecoverableError } from 'bullmq';

/**
 * How the runner tells failures apart without importing the engine or LLM libraries (the gateway
 * loads this lib too and must not pull in database drivers): by the error's `name` and the
 * flags those libraries' errors carry.
 */
interface FlaggedError {
  name?: unknown;
  message?: unknown;
  /** `LlmError`: worth retrying later (429, 5xx, timeouts). */
  retryable?: unknown;
  /** `ManagerError`: an outage (network, timeout, 5xx) rather than a rejection. */
  unavailable?: unknown;
  status?: unknown;
  body?: unknown;
}

function flags(err: unknown): FlaggedError {
  return typeof err === 'object' && err !== null ? err : {};
}

/** Where a failure came from, for a message that says what was unavailable. */
export type FailureSource = 'engine' | 'llm' | 'other';

export function failureSource(err: unknown): FailureSource {
  const name = flags(err).name;
  if (name === 'ManagerError' || name === 'ManagerUnavailableError' || name === 'TargetQueryError') return 'engine';
  if (name === 'LlmError') return 'llm';
  return 'other';
}

/**
 * True when another delivery of the job may succeed: outages, the Manager's busy lock, LLM
 * 429/5xx/timeouts, and anything unknown (a Redis blip, a bug that a restart fixes). A rejection
 * (a 4xx from the Manager, an LLM error marked not retryable) fails the same way every time.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof UnrecoverableError) return false;
  const f = flags(err);
  switch (failureSource(err)) {
    case 'llm':
      return f.retryable === true;
    case 'engine':
      if (f.name === 'TargetQueryError') return false;
      return (
        f.unavailable === true ||
        (f.status === 409 && typeof f.body === 'string' && f.body.includes('is busy processing another command'))
      );
    case 'other':
      return true;
  }
}

/**
 * The message the person sees when a node fails for good: which node, what was unavailable or
 * refused, and the underlying error, without secrets.
 */
export function describeFailure(node: string, err: unknown, secrets: readonly string[] = []): string {
  const f = flags(err);
  const detail = typeof f.message === 'string' ? f.message : String(err);
  let what: string;
  switch (failureSource(err)) {
    case 'engine':
      what =
        f.unavailable === true
          ? 'the engine (veloFlux Manager) is unavailable'
          : f.name === 'TargetQueryError'
            ? 'the engine refused the query'
            : 'the engine refused the request';
      break;
    case 'llm':
      what = f.retryable === true ? 'the LLM is unavailable' : 'the LLM call failed';
      break;
    case 'other':
      what = 'it failed';
      break;
  }
  return redact(`${node}: ${what}: ${detail}`, secrets);
}

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
