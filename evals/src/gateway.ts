import type { NodeTraceRecord, SessionView } from '@nl2p/envelope';

/** The gateway's session view and trace records: its own contract. */
export type { SessionView };
export type TraceRecord = NodeTraceRecord;

/** The gateway over HTTP, as any client calls it; sends the API key when given. */
export class EvalGateway {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  async createSession(body: Record<string, unknown>): Promise<SessionView> {
    const res = await this.call('POST', '/v1/sessions', body);
    if (res.status !== 201) throw new Error(`create session: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as SessionView;
  }

  /** One turn in wait mode, held until the turn needs the person or ends (or `timeoutMs`). */
  async turn(sessionId: string, input: Record<string, unknown>, timeoutMs: number): Promise<SessionView> {
    const res = await this.call('POST', `/v1/sessions/${sessionId}/turns`, {
      ...input,
      wait: true,
      timeout_ms: timeoutMs,
    });
    if (res.status !== 200) throw new Error(`turn: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as SessionView;
  }

  async trace(sessionId: string): Promise<TraceRecord[]> {
    const res = await this.call('GET', `/v1/sessions/${sessionId}/trace`);
    if (res.status !== 200) throw new Error(`trace: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { records: TraceRecord[] }).records;
  }

  private async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a plain-text body stays a string
    }
    return { status: res.status, body: parsed };
  }
}
