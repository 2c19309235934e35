/**
 * The MCP server's only way to the product: the gateway's public REST API, exactly as any other
 * client uses it. So the MCP server works against any deployment, and the gateway's API keys,
 * tenant isolation and limits apply to agents as they do to everyone.
 */

/** The gateway answered with an HTTP error; `message` is the gateway's own wording. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface TurnInput {
  text?: string;
  stream?: string;
  confirm?: boolean;
  feedback?: string;
}

/** What the gateway shows of a session (`GET /v1/sessions/:id`); passed through as it comes. */
export interface SessionView {
  session_id: string;
  status: string;
  turn_id: number;
  target: string;
  interrupt: { type: string; question?: string; choices?: string[] } | null;
  [field: string]: unknown;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** Nest error bodies carry `message` (a string, or a list for validation errors). */
function detailOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (Array.isArray(parsed.message)) return parsed.message.map(String).join('; ');
    if (typeof parsed.message === 'string') return parsed.message;
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON
  }
  return body.trim().split('\n')[0]?.slice(0, 300) || `HTTP ${status}`;
}

export class GatewayClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly apiKey?: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** The same gateway with another caller's key (Streamable HTTP: each request brings its own). */
  withKey(apiKey: string | undefined): GatewayClient {
    return new GatewayClient(this.baseUrl, apiKey);
  }

  async request<T>(method: string, path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          'user-agent': 'nl2pipeline-mcp',
          ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const why = err instanceof Error && err.name === 'TimeoutError' ? 'did not answer in time' : 'is unreachable';
      throw new GatewayError(0, `the nl2pipeline gateway at ${this.baseUrl} ${why}`);
    }
    const text = await res.text();
    if (!res.ok) throw new GatewayError(res.status, detailOf(res.status, text));
    return (text ? JSON.parse(text) : null) as T;
  }

  listStreams(target?: string) {
    return this.request<{ target: string; source_noun: string; streams: unknown[] }>(
      'GET',
      `/v1/streams${target ? `?target=${encodeURIComponent(target)}` : ''}`,
    );
  }

  describeStream(name: string, target?: string) {
    return this.request<{ name: string; columns: unknown[] }>(
      'GET',
      `/v1/streams/${encodeURIComponent(name)}${target ? `?target=${encodeURIComponent(target)}` : ''}`,
    );
  }

  createSession(body: { target?: string; stream?: string }) {
    return this.request<SessionView>('POST', '/v1/sessions', body);
  }

  getSession(id: string) {
    return this.request<SessionView>('GET', `/v1/sessions/${encodeURIComponent(id)}`);
  }

  listSessions(limit = 50) {
    return this.request<{ sessions: { session_id: string; status: string; request: string | null }[] }>(
      'GET',
      `/v1/sessions?limit=${limit}`,
    );
  }

  /** Posts a turn and holds until it needs the person or ends (or `waitMs` passes: still `running`). */
  turn(id: string, input: TurnInput, waitMs: number) {
    return this.request<SessionView>(
      'POST',
      `/v1/sessions/${encodeURIComponent(id)}/turns`,
      { ...input, wait: true, timeout_ms: waitMs },
      waitMs + REQUEST_TIMEOUT_MS,
    );
  }

  trace(id: string) {
    return this.request<{ session_id: string; records: unknown[] }>(
      'GET',
      `/v1/sessions/${encodeURIComponent(id)}/trace`,
    );
  }
}
