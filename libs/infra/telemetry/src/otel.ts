import { context, propagation, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;

/**
 * Starts OpenTelemetry for one service process: OTLP over HTTP (endpoint from the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), W3C trace context.
 * Without an endpoint it stays off: no exporter retrying against a collector nobody runs.
 * No auto-instrumentation: the spans that matter (turn, node, LLM call, engine call) are made
 * explicitly, and Redis/BullMQ internals would drown them.
 */
export function startTelemetry(serviceName: string, env: Record<string, string | undefined>): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (sdk || !endpoint || env.OTEL_SDK_DISABLED === 'true') return false;
  sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
    // Traces only: the SDK would otherwise also push OTLP metrics and logs nobody asked for.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return true;
}

/** Flushes and stops the exporter (on shutdown, so the last spans are not lost). */
export async function shutdownTelemetry(): Promise<void> {
  const current = sdk;
  sdk = undefined;
  await current?.shutdown();
}

export function tracer(): Tracer {
  return trace.getTracer('nl2pipeline');
}

/** W3C carrier fields, as the envelope stores them. */
export interface TraceCarrier {
  traceparent: string | null;
  tracestate: string | null;
}

/** The carrier of `span` (or of the active context), to put into the envelope. */
export function injectCarrier(ctx: Context = context.active()): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return { traceparent: carrier.traceparent ?? null, tracestate: carrier.tracestate ?? null };
}

/** The context a carrier (from the envelope or an HTTP request) names as parent. */
export function extractCarrier(carrier: Partial<TraceCarrier> | undefined): Context {
  const headers: Record<string, string> = {};
  if (carrier?.traceparent) headers.traceparent = carrier.traceparent;
  if (carrier?.tracestate) headers.tracestate = carrier.tracestate;
  return propagation.extract(context.active(), headers);
}

/** Records an error on a span the way OTel expects (status + exception event). */
export function failSpan(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : new Error(String(err)));
  span.setStatus({ code: 2, message: err instanceof Error ? err.message : String(err) });
}
