/**
 * What kind of failure stopped a node, as the library that raised it classifies it. The workflow
 * runner decides retries and words the person's message from this alone, so it needs neither
 * the engine's nor the LLM's error classes (the gateway loads the runner and must not pull in
 * database drivers), and no error is recognised by its class name.
 */
export type FailureKind =
  /** The engine could not be reached or answered 5xx: another delivery may succeed. */
  | 'engine_unavailable'
  /** The engine's per-pipeline lock: transient, worth retrying. */
  | 'engine_busy'
  /** The engine refused the request or the query: the same every time. */
  | 'engine_refused'
  /** The LLM was unavailable (429, 5xx, timeout): worth retrying later. */
  | 'llm_unavailable'
  /** The LLM call failed for good (a 4xx, a refused request). */
  | 'llm_refused';

/** An error that says its {@link FailureKind}; the engine's and the LLM library's errors do. */
export interface ClassifiedFailure {
  readonly failureKind: FailureKind;
}

/** The kind an error carries, or null for anything else (a Redis blip, a bug). */
export function failureKindOf(err: unknown): FailureKind | null {
  if (typeof err !== 'object' || err === null || !('failureKind' in err)) return null;
  const kind = err.failureKind;
  return FAILURE_KINDS.find((k) => k === kind) ?? null;
}

const FAILURE_KINDS: readonly FailureKind[] = [
  'engine_unavailable',
  'engine_busy',
  'engine_refused',
  'llm_unavailable',
  'llm_refused',
];
