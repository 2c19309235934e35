import { AsyncLocalStorage } from 'node:async_hooks';
import { SpanKind } from '@opentelemetry/api';
import { observeEngineCall, observeLlmCall } from '@nl2p/metrics';
import { tracer } from './otel';
import type { EngineCallRecord, LlmCallRecord } from '@nl2p/envelope';

export type { EngineCallRecord, LlmCallRecord };

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

/**
 * Records an LLM call: into the node run's call log, as a child span of the node's span with
 * the OpenTelemetry GenAI attributes, and in the Prometheus series (by `role`: router, preview,
 * reasoning). The span is made after the call from its measured latency, so the clients need no
 * tracing code of their own.
 */
export function recordLlmCall(call: LlmCallRecord, role = 'unknown'): void {
  storage.getStore()?.llm.push(call);
  observeLlmCall({
    role,
    model: call.model,
    inputTokens: call.input_tokens,
    outputTokens: call.output_tokens,
    latencyMs: call.latency_ms,
    retries: call.retries,
  });
  const end = Date.now();
  const span = tracer().startSpan(`chat ${call.model}`, {
    kind: SpanKind.CLIENT,
    startTime: end - call.latency_ms,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': call.provider ?? 'openai',
      'gen_ai.request.model': call.model,
      'gen_ai.response.model': call.model,
      'gen_ai.usage.input_tokens': call.input_tokens,
      'gen_ai.usage.output_tokens': call.output_tokens,
      'gen_ai.response.finish_reasons': call.finish_reason ? [call.finish_reason] : [],
      'nl2p.retries': call.retries,
    },
  });
  span.end(end);
}

/** Records an engine call: into the node run's call log, as an HTTP client span, and in the Prometheus series. */
export function recordEngineCall(call: EngineCallRecord): void {
  storage.getStore()?.engine.push(call);
  observeEngineCall({
    method: call.method,
    route: call.route,
    status: call.status,
    latencyMs: call.latency_ms,
    retries: call.retries,
  });
  const end = Date.now();
  const span = tracer().startSpan(`${call.method} ${call.route}`, {
    kind: SpanKind.CLIENT,
    startTime: end - call.latency_ms,
    attributes: {
      'http.request.method': call.method,
      'url.template': call.route,
      ...(call.status === null ? {} : { 'http.response.status_code': call.status }),
      'nl2p.retries': call.retries,
    },
  });
  if (call.status === null || call.status >= 400)
    span.setStatus({ code: 2, message: `status ${call.status ?? 'none'}` });
  span.end(end);
}
