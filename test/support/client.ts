/** A minimal JSON-over-HTTP client for the gateway, as any client would use it. */
export class GatewayClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // plain-text bodies stay strings
    }
    return { status: res.status, body: parsed as T };
  }

  async createSession(body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.request('POST', '/v1/sessions', body);
    if (res.status !== 201) throw new Error(`create session: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.session_id as string;
  }

  /** Posts a turn in wait mode and returns the session view once the turn stops. */
  async turn(sessionId: string, body: Record<string, unknown>): Promise<any> {
    const res = await this.request('POST', `/v1/sessions/${sessionId}/turns`, {
      ...body,
      wait: true,
      timeout_ms: 30_000,
    });
    if (res.status !== 200) throw new Error(`turn: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}
