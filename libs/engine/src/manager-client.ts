import type { ClassifiedFailure, Column, FailureKind } from '@nl2p/envelope';
import type { EngineCall } from './port';
import { isSinkConfigError } from './veloflux/classify';

// ---------------------------------------------------------------------------------------------
// Wire shapes of the veloFlux Manager REST API (manager-api/CONTRACT.md §2–§5). Field names are
// the server's; only what the product reads is typed strictly, the rest is left open.
// ---------------------------------------------------------------------------------------------

/** `GET /streams` element (CONTRACT §2.1). */
export interface ManagerStreamInfo {
  name: string;
  shared: boolean;
  schema: { columns: Column[] };
  /** Always `null` in the list; an object for a freshly created shared stream. */
  shared_stream: Record<string, unknown> | null;
}

/** `GET /streams/describe/:name` (CONTRACT §2.2). */
export interface DescribeStreamResponse {
  stream: string;
  spec_version: number;
  spec: {
    type: string;
    schema: { columns: Column[] };
    props: Record<string, unknown>;
    shared: boolean;
    decoder: { type: string; props: Record<string, unknown> };
    eventtime?: { column: string; type: string };
    sampler?: { interval: string; strategy: Record<string, unknown> };
  };
}

/** Function type descriptor; "any" has two encodings (`{kind:'any'}` and named `any`). */
export type TypeSpec =
  | { kind: 'any' }
  | { kind: 'named'; name: string }
  | { kind: 'category'; name: string }
  | { kind: 'list'; element: TypeSpec }
  | { kind: 'struct'; fields: { name: string; type: TypeSpec }[] };

/** Variadic arguments are also marked `optional: true` by the server. */
export interface FunctionArgSpec {
  name: string;
  type: TypeSpec;
  optional: boolean;
  variadic: boolean;
}

/** `GET /functions` element (CONTRACT §3.1). */
export interface FunctionDef {
  kind: 'scalar' | 'aggregate' | 'stateful';
  name: string;
  aliases: string[];
  signature: { args: FunctionArgSpec[]; return_type: TypeSpec };
  description: string;
  allowed_contexts: string[];
  requirements: { kind: string }[];
  constraints: string[];
  examples: string[];
  /** Only present for aggregates. */
  aggregate?: { supports_incremental: boolean };
  /** Only present for stateful functions. */
  stateful?: { state_semantics: string };
}

/** One node of the syntax tree; empty lists and `None` values are left out by the server. */
export interface SyntaxConstruct {
  id: string;
  type: 'group' | 'feature';
  title: string;
  /** Only on features. */
  status?: 'supported' | 'partial' | 'unsupported';
  purpose?: string;
  semantics?: string;
  placement?: { clause: string; contexts?: string[] };
  /** Constraint ids in snake_case, e.g. `at_most_one_window`. */
  constraints?: string[];
  /** Whole sentences. */
  workarounds?: string[];
  syntax?: string[];
  examples?: string[];
  emits_plan_nodes?: string[];
  children?: SyntaxConstruct[];
}

/** `GET /capabilities/syntax` (CONTRACT §4). */
export interface SyntaxCapabilities {
  dialect: string;
  ir: string;
  constructs: SyntaxConstruct[];
}

/** `sinks[]` of a create request (CONTRACT §5.1). */
export interface CreatePipelineSinkRequest {
  id?: string | null;
  type: string;
  props?: Record<string, unknown>;
  common_sink_props?: { batch_count?: number | null; batch_duration?: number | null };
  encoder?: { type?: string; props?: Record<string, unknown>; transform?: { template: string } };
  output?: { mode: 'full' | 'delta'; delta?: { columns?: string[] }; omit_if_empty?: boolean };
}

/** `options` of a create request; every sub-field has a server default. */
export interface PipelineOptionsRequest {
  data_channel_capacity?: number;
  eventtime?: { enabled?: boolean; late_tolerance_ms?: number };
}

/** Body of `POST /pipelines` (CONTRACT §5.1). */
export interface CreatePipelineRequest {
  id: string;
  flow_instance_id?: string | null;
  sql: string;
  sources?: { stream: string; input?: { mode: 'full' | 'on_change'; on_change?: { columns?: string[] } } }[];
  sinks: CreatePipelineSinkRequest[];
  options?: PipelineOptionsRequest;
}

export type PipelineStatus = 'running' | 'stopped';

/** 201 body of `POST /pipelines`; `status` is always `stopped` because create never starts. */
export interface CreatePipelineResponse {
  id: string;
  status: PipelineStatus;
}

/** `GET /pipelines` element; `status` is the runtime status (orphans read `stopped`). */
export interface ListPipelineItem {
  id: string;
  status: PipelineStatus;
  flow_instance_id: string;
}

/** `GET /pipelines/:id`; `status` here is the stored desired state, unlike the list. */
export interface GetPipelineResponse {
  id: string;
  status: PipelineStatus;
  spec: CreatePipelineRequest & Record<string, unknown>;
}

/** Body of `POST /streams` (recorded: `{name, type, schema: {type: 'json', props: {columns}}}`). */
export interface CreateStreamRequest {
  name: string;
  type: string;
  schema: { type: 'json'; props: { columns: Column[] } };
  props?: Record<string, unknown>;
  decoder?: { type: string; props: Record<string, unknown> };
}

/** One processor's counters in `GET /pipelines/:id/stats` (recorded; the order is the runtime's). */
export interface ProcessorStats {
  /** `PhysicalFilter_5`, `PhysicalDataSink_7_<id>_sink_0`, … */
  processor_id: string;
  stats: { records_in: number; records_out: number; error_count: number; last_error: string | null };
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/**
 * The Manager answered with a non-success status, or could not be reached. `body` is the
 * plain-text error body (the Manager never sends JSON errors), `status` is `null` when no HTTP
 * answer arrived at all.
 */
export class ManagerError extends Error implements ClassifiedFailure {
  override readonly name: string = 'ManagerError';
  /** True when the failure is an outage (network, timeout, 5xx) rather than a rejection. */
  readonly unavailable: boolean = false;

  get failureKind(): FailureKind {
    if (this.unavailable) return 'engine_unavailable';
    return isBusyError(this) ? 'engine_busy' : 'engine_refused';
  }

  constructor(
    readonly method: string,
    /** Route pattern such as `/pipelines/:id`. */
    readonly route: string,
    readonly status: number | null,
    readonly body: string,
    options?: { cause?: unknown; message?: string },
  ) {
    super(
      options?.message ?? `${method} ${route} failed: ${status === null ? 'no response' : `HTTP ${status}`}: ${body}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

/**
 * The Manager stayed unreachable (network error, timeout) or kept answering 5xx after every retry.
 * Callers use this to tell an outage from a rejection of the request.
 */
export class ManagerUnavailableError extends ManagerError {
  override readonly name: string = 'ManagerUnavailableError';
  override readonly unavailable: boolean = true;
}

/** `DELETE /streams/:name` of a stream the Manager does not have (a 500, recorded). */
export function isMissingStreamError(body: string): boolean {
  return /failed to remove from storage: not found: /.test(body);
}

/** True for the per-pipeline lock conflict (CONTRACT §0): transient, worth retrying. */
export function isBusyError(err: unknown): err is ManagerError {
  return err instanceof ManagerError && err.status === 409 && err.body.includes('is busy processing another command');
}

// ---------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------

export interface ManagerClientOptions {
  /** E.g. `http://127.0.0.1:8080`; a trailing slash is fine. */
  baseUrl: string;
  /** Per attempt, not per call. Default 10 000 ms. */
  timeoutMs?: number;
  /** Extra attempts after the first for transient failures. Default 3. */
  retries?: number;
  /** Base of the exponential backoff (with jitter). Default 200 ms. */
  backoffMs?: number;
  /** Upper bound for one backoff sleep. Default 5 000 ms. */
  maxBackoffMs?: number;
  /** Called once per logical call (after its retries), success or failure. */
  onCall?: (call: EngineCall) => void;
}

type Expect = 'json' | 'text';

interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Route pattern with `:param` placeholders. */
  route: string;
  params?: Record<string, string>;
  body?: unknown;
  expect: Expect;
}

/** What one HTTP attempt produced, before the retry decision. */
type Attempt = { kind: 'response'; status: number; text: string } | { kind: 'network'; error: unknown };

/**
 * Typed client of the veloFlux Manager REST API (manager-api/CONTRACT.md). Retries outages and
 * the per-pipeline busy lock with exponential backoff; every other 4xx is returned to the caller
 * at once as a {@link ManagerError}.
 */
export class ManagerClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly onCall?: (call: EngineCall) => void;

  constructor(options: ManagerClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = Math.max(0, options.retries ?? 3);
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.onCall = options.onCall;
  }

  /** `GET /streams`. */
  listStreams(): Promise<ManagerStreamInfo[]> {
    return this.request({ method: 'GET', route: '/streams', expect: 'json' });
  }

  /** `GET /streams/describe/:name`; an unknown stream is a 404 {@link ManagerError}. */
  describeStream(name: string): Promise<DescribeStreamResponse> {
    return this.request({ method: 'GET', route: '/streams/describe/:name', params: { name }, expect: 'json' });
  }

  /** `POST /streams`; 409 when the name is taken. */
  createStream(request: CreateStreamRequest): Promise<ManagerStreamInfo> {
    return this.request({ method: 'POST', route: '/streams', body: request, expect: 'json' });
  }

  /**
   * `DELETE /streams/:name`; 409 while a loaded pipeline reads it. An unknown stream is a 500
   * (recorded: "deleted in runtime but failed to remove from storage: not found").
   */
  deleteStream(name: string): Promise<string> {
    return this.request({ method: 'DELETE', route: '/streams/:name', params: { name }, expect: 'text' });
  }

  /** `GET /functions`: the builtin catalog (WASM UDFs are not listed; `isnull` appears twice). */
  listFunctions(): Promise<FunctionDef[]> {
    return this.request({ method: 'GET', route: '/functions', expect: 'json' });
  }

  /** `GET /capabilities/syntax`. */
  syntaxCapabilities(): Promise<SyntaxCapabilities> {
    return this.request({ method: 'GET', route: '/capabilities/syntax', expect: 'json' });
  }

  /**
   * `POST /pipelines`. Note the server may keep the record even when this fails with 400
   * (CONTRACT §5.2 step 8), and a retried create whose first answer was lost comes back 409.
   */
  createPipeline(request: CreatePipelineRequest): Promise<CreatePipelineResponse> {
    return this.request({ method: 'POST', route: '/pipelines', body: request, expect: 'json' });
  }

  /** `GET /pipelines/:id`. */
  getPipeline(id: string): Promise<GetPipelineResponse> {
    return this.request({ method: 'GET', route: '/pipelines/:id', params: { id }, expect: 'json' });
  }

  /** `GET /pipelines`: every stored pipeline, sorted by id. */
  listPipelines(): Promise<ListPipelineItem[]> {
    return this.request({ method: 'GET', route: '/pipelines', expect: 'json' });
  }

  /** `DELETE /pipelines/:id`; resolves with the server's text (`pipeline <id> deleted`). */
  deletePipeline(id: string): Promise<string> {
    return this.request({ method: 'DELETE', route: '/pipelines/:id', params: { id }, expect: 'text' });
  }

  /** `POST /pipelines/:id/start`. */
  startPipeline(id: string): Promise<string> {
    return this.request({ method: 'POST', route: '/pipelines/:id/start', params: { id }, expect: 'text' });
  }

  /** `GET /pipelines/:id/stats`: per-processor counters; 400 when the pipeline is not running. */
  pipelineStats(id: string): Promise<ProcessorStats[]> {
    return this.request({ method: 'GET', route: '/pipelines/:id/stats', params: { id }, expect: 'json' });
  }

  /** `GET /pipelines/:id/explain`: the plan as text; 404 for orphans not loaded in the runtime. */
  explainPipeline(id: string): Promise<string> {
    return this.request({ method: 'GET', route: '/pipelines/:id/explain', params: { id }, expect: 'text' });
  }

  private async request<T>(spec: RequestSpec): Promise<T> {
    const path = buildPath(spec.route, spec.params ?? {});
    const started = performance.now();
    let retries = 0;
    let lastStatus: number | null = null;
    try {
      for (;;) {
        const attempt = await this.attempt(spec, path);
        lastStatus = attempt.kind === 'response' ? attempt.status : null;
        const failure = this.toError(spec, attempt);
        if (failure === null) {
          return this.parse<T>(spec, (attempt as { text: string }).text, lastStatus as number);
        }
        const transient = failure.unavailable || isBusyError(failure);
        if (!transient || retries >= this.retries) throw failure;
        await sleep(this.backoff(retries));
        retries += 1;
      }
    } finally {
      this.onCall?.({
        method: spec.method,
        route: spec.route,
        status: lastStatus,
        latency_ms: Math.round(performance.now() - started),
        retries,
      });
    }
  }

  private async attempt(spec: RequestSpec, path: string): Promise<Attempt> {
    const init: RequestInit = {
      method: spec.method,
      signal: AbortSignal.timeout(this.timeoutMs),
      headers: { accept: spec.expect === 'json' ? 'application/json' : 'text/plain' },
    };
    if (spec.body !== undefined) {
      init.body = JSON.stringify(spec.body);
      // Without this header axum answers 415 before looking at the body.
      init.headers = { ...init.headers, 'content-type': 'application/json' };
    }
    try {
      const res = await fetch(this.baseUrl + path, init);
      // The body read shares the timeout signal, so a stalled body also counts as a timeout.
      const text = await res.text();
      return { kind: 'response', status: res.status, text };
    } catch (error) {
      return { kind: 'network', error };
    }
  }

  private toError(spec: RequestSpec, attempt: Attempt): ManagerError | null {
    if (attempt.kind === 'network') {
      const reason = describeNetworkError(attempt.error);
      return new ManagerUnavailableError(spec.method, spec.route, null, '', {
        cause: attempt.error,
        message: `${spec.method} ${spec.route} failed: ${reason}`,
      });
    }
    if (attempt.status >= 200 && attempt.status < 300) return null;
    // A 500 for sink props it cannot decode is the Manager's verdict on the request (it stores
    // nothing and answers the same every time), so it is not retried as an outage.
    // So is deleting a stream it does not have: a 500 ending "not found: <name>" (recorded).
    if (attempt.status >= 500 && !isSinkConfigError(attempt.text) && !isMissingStreamError(attempt.text))
      return new ManagerUnavailableError(spec.method, spec.route, attempt.status, attempt.text);
    return new ManagerError(spec.method, spec.route, attempt.status, attempt.text);
  }

  private parse<T>(spec: RequestSpec, text: string, status: number): T {
    if (spec.expect === 'text') return text as T;
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new ManagerError(spec.method, spec.route, status, text, {
        cause,
        message: `${spec.method} ${spec.route} failed: HTTP ${status} with a body that is not JSON`,
      });
    }
  }

  /** Full jitter keeps concurrent workers that failed together from retrying in lockstep. */
  private backoff(retry: number): number {
    const ceiling = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** retry);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/**
 * Fills `:param` placeholders with percent-encoded values, so a name such as `../pipelines?x=1`
 * stays one path segment and can never address another route.
 */
export function buildPath(route: string, params: Record<string, string>): string {
  return route.replace(/:([A-Za-z_]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key} for ${route}`);
    return encodePathSegment(value);
  });
}

/**
 * encodeURIComponent, refusing what no encoding can carry: the URL parser collapses `.`/`..`
 * segments (even as `%2E%2E`) and an empty segment changes the route.
 */
export function encodePathSegment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new RangeError(`${JSON.stringify(value)} cannot be sent as a URL path segment`);
  }
  return encodeURIComponent(value);
}

function describeNetworkError(error: unknown): string {
  // Duck-typed: under Jest (and other vm realms) the DOMException is not an `instanceof Error`.
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  // undici wraps the useful part (ECONNREFUSED, ECONNRESET) in `cause`.
  const cause = e.cause as { message?: unknown } | undefined;
  const detail = typeof cause?.message === 'string' ? `: ${cause.message}` : '';
  return `network error: ${typeof e.message === 'string' ? e.message : String(error)}${detail}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
