import { createParser } from 'eventsource-parser';
import type { NodeTraceRecord, SessionEvent, SessionSummary, SessionView, TargetList } from '@nl2p/envelope';

/** What the gateway shows of a session (`GET /v1/sessions/:id`): the gateway's own contract. */
export type { SessionView };

export interface Column {
  name: string;
  data_type: string;
}

export interface StreamInfo {
  name: string;
  columns: Column[];
}

export interface StreamList {
  target: string;
  source_noun: 'stream' | 'table';
  streams: StreamInfo[];
}

/** One line of `GET /v1/sessions`: the gateway's own contract. */
export type { SessionSummary };

/** One node run of `GET /v1/sessions/:id/trace`: the gateway's own contract. */
export type TraceRecord = NodeTraceRecord;

export interface TurnBody {
  text?: string;
  stream?: string;
  confirm?: boolean;
  feedback?: string;
}

/** The gateway answered with an error; `message` is the product's own wording. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const KEY_STORAGE = 'nl2p.apiKey';

/** Nest error bodies carry `message` (a string, or a list for validation errors). */
function messageOf(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (Array.isArray(body.message)) return body.message.map(String).join('; ');
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON
  }
  return text.trim() || `HTTP ${status}`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The console's way to the gateway: its REST API and its event stream, same origin. */
export class ConsoleApi {
  apiKey: string | null;

  constructor(private readonly base = '') {
    this.apiKey = sessionStorage.getItem(KEY_STORAGE);
  }

  setKey(key: string | null): void {
    this.apiKey = key;
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}), ...extra };
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, 'The gateway cannot be reached. Is it running?');
    }
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, messageOf(res.status, text));
    return (text ? JSON.parse(text) : null) as T;
  }

  /** The targets this deployment can reach, the default first. */
  targets() {
    return this.request<TargetList>('GET', '/v1/targets');
  }

  streams(target?: string) {
    return this.request<StreamList>('GET', `/v1/streams${target ? `?target=${encodeURIComponent(target)}` : ''}`);
  }

  sessions() {
    return this.request<{ sessions: SessionSummary[] }>('GET', '/v1/sessions?limit=20');
  }

  createSession(target?: string) {
    return this.request<SessionView>('POST', '/v1/sessions', target ? { target } : {});
  }

  session(id: string) {
    return this.request<SessionView>('GET', `/v1/sessions/${id}`);
  }

  postTurn(id: string, body: TurnBody) {
    return this.request<SessionView>('POST', `/v1/sessions/${id}/turns`, body);
  }

  /** Cancels the running turn (it ends `cancelled`; its event stream ends too). */
  cancel(id: string) {
    return this.request<SessionView>('POST', `/v1/sessions/${id}/turns/current/cancel`, {});
  }

  async trace(id: string, turn: number): Promise<TraceRecord[]> {
    return (await this.request<{ records: TraceRecord[] }>('GET', `/v1/sessions/${id}/trace?turn=${turn}`)).records;
  }

  /**
   * Follows one turn's Server-Sent Events until `end`. A dropped connection is resumed with the
   * standard `Last-Event-ID` header, so each event arrives once. Uses fetch, not EventSource,
   * because EventSource cannot send the API key.
   */
  async followTurn(id: string, turn: number, onEvent: (e: SessionEvent) => void, signal?: AbortSignal): Promise<void> {
    let lastEventId: string | undefined;
    let failures = 0;
    for (;;) {
      let ended = false;
      let heard = false;
      let failed = false;
      const parser = createParser({
        onEvent: (message) => {
          heard = true;
          if (message.id) lastEventId = message.id;
          if (message.event === 'end') ended = true;
          else if (message.event !== 'heartbeat') onEvent(JSON.parse(message.data) as SessionEvent);
        },
      });
      try {
        const res = await fetch(`${this.base}/v1/sessions/${id}/events?turn=${turn}`, {
          headers: this.headers({
            accept: 'text/event-stream',
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
          }),
          signal,
        });
        if (!res.ok || !res.body) throw new ApiError(res.status, messageOf(res.status, await res.text()));
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
          if (ended) {
            await reader.cancel();
            return;
          }
        }
      } catch (err) {
        if (signal?.aborted) return;
        failed = true;
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) throw err;
        if (++failures > 6) throw err instanceof Error ? err : new Error(String(err));
      }
      if (ended || signal?.aborted) return;
      // A stream that closed at once, without a word, counts as a failure too: no endless retries.
      if (!heard && !failed && ++failures > 6)
        throw new Error('the event stream keeps closing; reload to see the session');
      await sleep(Math.min(2_000, 150 * 2 ** failures), signal);
    }
  }
}
