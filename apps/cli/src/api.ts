import type { NodeTraceRecord, SessionEvent, SessionView } from '@nl2p/envelope';
import { SseParser } from './sse';

/** What the gateway shows of a session (`GET /v1/sessions/:id`): the gateway's own contract. */
export type { SessionView };

/** One node run of `GET /v1/sessions/:id/trace`: the gateway's own contract. */
export type TraceRecord = NodeTraceRecord;

/** A stream (a table on SQL targets) and its columns, as `GET /v1/streams` lists them. */
export interface StreamInfo {
  name: string;
  columns: { name: string; data_type: string }[];
}

/** `GET /v1/streams`: a target's catalog. */
export interface StreamList {
  target: string;
  source_noun: 'stream' | 'table';
  streams: StreamInfo[];
}

export interface TurnBody {
  text?: string;
  confirm?: boolean;
  feedback?: string;
  stream?: string;
}

export interface CreateSessionBody {
  target?: string;
  stream?: string;
}

/** A failure worth one line to the person: what went wrong, never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The gateway could not be reached at all (refused, unknown host, timed out). */
export class GatewayUnreachableError extends CliError {}

/** The gateway answered with an HTTP error. */
export class GatewayHttpError extends CliError {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly path: string,
  ) {
    super(`gateway answered ${status} on ${path}: ${detail}`);
  }
}

/** The person (Ctrl-C) or a deadline stopped the wait. */
export class StoppedError extends Error {
  override readonly name = 'StoppedError';
  constructor(readonly reason: 'interrupt' | 'timeout' | 'exit') {
    super(reason === 'timeout' ? 'timed out waiting for the turn' : 'stopped waiting for the turn');
  }
}

const REQUEST_TIMEOUT_MS = 30_000;

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND…), else its cause's message. */
function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  let message: string | undefined;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const text = (e as { message?: unknown }).message;
    if (depth > 0 && typeof text === 'string' && text) message ??= text;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}

/** Nest error bodies carry `message` (a string, or a list for validation errors). */
function detailOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const m = parsed.message;
    if (Array.isArray(m)) return m.map(String).join('; ');
    if (typeof m === 'string') return m;
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON
  }
  return body.trim().split('\n')[0]?.slice(0, 300) || '(empty body)';
}

function signalReason(signal: AbortSignal | undefined): StoppedError | undefined {
  if (!signal?.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof StoppedError ? reason : new StoppedError('interrupt');
}

/** The CLI's only way to the workflow: the gateway's REST and SSE endpoints. */
export class GatewayApi {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly apiKey?: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'user-agent': 'nl2pipeline-cli',
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      ...extra,
    };
  }

  private async fetch(path: string, init: RequestInit, signal?: AbortSignal, timeoutMs = REQUEST_TIMEOUT_MS) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await fetch(`${this.baseUrl}${path}`, { ...init, signal: combined });
    } catch (err) {
      const stopped = signalReason(signal);
      if (stopped) throw stopped;
      if (timeout.aborted) {
        throw new GatewayUnreachableError(`the gateway at ${this.baseUrl} did not answer within ${timeoutMs / 1000} s`);
      }
      const code = causeCode(err);
      throw new GatewayUnreachableError(
        `cannot reach the gateway at ${this.baseUrl}${code ? ` (${code})` : ''}: is it running? (set --url or NL2P_URL)`,
      );
    }
  }

  async request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const res = await this.fetch(
      path,
      {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      signal,
    );
    const text = await res.text();
    if (!res.ok) {
      if (res.status === 401 || res.status === 403) {
        throw new CliError(
          `the gateway refused the request (${res.status}): ${detailOf(text)}; set --api-key or NL2P_API_KEY`,
        );
      }
      if (res.status === 429) {
        const after = res.headers.get('retry-after');
        throw new CliError(`the gateway is rate limiting this key${after ? `: retry in ${after} s` : ''}`);
      }
      throw new GatewayHttpError(res.status, detailOf(text), `${method} ${path}`);
    }
    try {
      return (text ? JSON.parse(text) : null) as T;
    } catch {
      throw new CliError(`the gateway sent something that is not JSON on ${method} ${path}`);
    }
  }

  createSession(body: CreateSessionBody = {}): Promise<SessionView> {
    return this.request<SessionView>('POST', '/v1/sessions', body);
  }

  getSession(id: string, signal?: AbortSignal): Promise<SessionView> {
    return this.request<SessionView>('GET', `/v1/sessions/${encodeURIComponent(id)}`, undefined, signal);
  }

  /** Posts a turn without waiting: 202 with the running view, or 200 when it ended at once. */
  postTurn(id: string, body: TurnBody): Promise<SessionView> {
    return this.request<SessionView>('POST', `/v1/sessions/${encodeURIComponent(id)}/turns`, body);
  }

  /** The target's streams (tables on SQL targets), read from the engine without a session. */
  listStreams(target?: string): Promise<StreamList> {
    const q = target ? `?target=${encodeURIComponent(target)}` : '';
    return this.request<StreamList>('GET', `/v1/streams${q}`);
  }

  /** One stream's columns; `null` when the target has no such stream. */
  async describeStream(name: string, target?: string): Promise<StreamInfo | null> {
    const q = target ? `?target=${encodeURIComponent(target)}` : '';
    try {
      return await this.request<StreamInfo>('GET', `/v1/streams/${encodeURIComponent(name)}${q}`);
    } catch (err) {
      if (err instanceof GatewayHttpError && err.status === 404) return null;
      throw err;
    }
  }

  async trace(id: string, turn?: number): Promise<TraceRecord[]> {
    const q = turn === undefined ? '' : `?turn=${turn}`;
    const res = await this.request<{ records: TraceRecord[] }>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/trace${q}`,
    );
    return res.records ?? [];
  }

  /**
   * Asks the gateway to cancel the running turn. `unsupported` when this gateway has no cancel
   * endpoint (or forgot the turn), `not_running` when nothing runs any more.
   */
  async cancelTurn(id: string): Promise<'cancelled' | 'unsupported' | 'not_running'> {
    try {
      await this.request('POST', `/v1/sessions/${encodeURIComponent(id)}/turns/current/cancel`, {});
      return 'cancelled';
    } catch (err) {
      if (err instanceof GatewayHttpError && (err.status === 404 || err.status === 405)) return 'unsupported';
      if (err instanceof GatewayHttpError && err.status === 409) return 'not_running';
      throw err;
    }
  }

  /**
   * Follows one turn over SSE until the gateway sends `end` (resolves with its status). A dropped
   * connection resumes with `Last-Event-ID`. Resolves `null` when this gateway has no event
   * stream, so the caller can poll instead.
   */
  async followTurn(
    id: string,
    turnId: number,
    onEvent: (e: SessionEvent) => void,
    signal: AbortSignal,
  ): Promise<{ status: string } | null> {
    let lastEventId: string | undefined;
    let failures = 0;
    for (;;) {
      let ended: { status: string } | undefined;
      const parser = new SseParser((m) => {
        if (m.event === 'end') {
          ended = parseJson<{ status?: string }>(m.data) as { status: string };
          ended = { status: String(ended?.status ?? 'unknown') };
          return;
        }
        if (m.event === 'heartbeat') return;
        const event = parseJson<SessionEvent>(m.data);
        if (event) onEvent(event);
      });
      try {
        const res = await this.fetch(
          `/v1/sessions/${encodeURIComponent(id)}/events?turn=${turnId}`,
          {
            headers: this.headers({
              accept: 'text/event-stream',
              ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
            }),
          },
          signal,
          24 * 3600_000,
        );
        if (res.status === 404 && failures === 0 && !lastEventId) {
          await res.body?.cancel();
          // A session we just used cannot be missing: this gateway has no event stream.
          return null;
        }
        if (!res.ok || !res.body) {
          const text = await res.text();
          throw new GatewayHttpError(res.status, detailOf(text), `GET /v1/sessions/${id}/events`);
        }
        const decoder = new TextDecoder();
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await readChunk(reader, signal);
          if (done || !value) break;
          parser.feed(decoder.decode(value, { stream: true }));
          lastEventId = parser.lastEventId ?? lastEventId;
          if (ended) {
            await reader.cancel().catch(() => undefined);
            return ended;
          }
        }
      } catch (err) {
        const stopped = signalReason(signal);
        if (stopped) throw stopped;
        if (err instanceof CliError && !(err instanceof GatewayUnreachableError)) throw err;
        if (++failures > 5) throw err;
      }
      lastEventId = parser.lastEventId ?? lastEventId;
      await sleep(Math.min(2_000, 200 * 2 ** failures), signal);
    }
  }
}

async function readChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  signal: AbortSignal,
): Promise<{ done: boolean; value?: Uint8Array }> {
  const stopped = signalReason(signal);
  if (stopped) {
    await reader.cancel().catch(() => undefined);
    throw stopped;
  }
  return reader.read();
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stopped = signalReason(signal);
    if (stopped) return reject(stopped);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signalReason(signal) ?? new StoppedError('interrupt'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
