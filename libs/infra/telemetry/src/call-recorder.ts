import { AsyncLocalStorage } from 'node:async_hooks';

export interface LlmCallRecord {
  model: string;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  finish_reason: string | null;
  retries: number;
}

export interface EngineCallRecord {
  method: string;
  route: string;
  status: number | null;
  latency_ms: number;
  retries: number;
}

export interface CallLog {
  llm: LlmCallRecord[];
  engine: EngineCallRecord[];
}

const storage = new AsyncLocalStorage<CallLog>();

/**
 * Collects the LLM and engine calls made while `fn` runs (one node run) into `calls`, without
 * threading a recorder through every client: clients report into whatever node run is current.
 * The caller owns `calls`, so a run that throws still leaves its calls for the trace record.
 */
export function runWithCallLog<T>(calls: CallLog, fn: () => Promise<T>): Promise<T> {
  return storage.run(calls, fn);
}

export function emptyCallLog(): CallLog {
  return { llm: [], engine: [] };
}

/** The call log of the current node run, if any (for a failed run's trace record too). */
export function currentCallLog(): CallLog | undefined {
  return storage.getStore();
}

export function recordLlmCall(call: LlmCallRecord): void {
  storage.getStore()?.llm.push(call);
}

export function recordEngineCall(call: EngineCallRecord): void {
  storage.getStore()?.engine.push(call);
}
