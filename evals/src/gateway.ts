/** The parts of the gateway's session view the eval reads. */
export interface SessionView {
  session_id: string;
  status: string;
  turn_id: number;
  target: string;
  node: string | null;
  active_stream: string | null;
  interrupt: { type: string; question: string; choices: string[] | null } | null;
  sql: string | null;
  /** Absent on gateways older than plan mode. */
  draft_mode?: 'plan' | 'sql' | null;
  explain: string | null;
  error: { node: string | null; message: string } | null;
  attempts: {
    attempt: number;
    max_attempts: number;
    failures: { attempt: number; sql: string; stage: 'local' | 'engine'; error: string }[];
  };
}

export interface TraceRecord {
  turn_id: number;
  node: string;
  llm: { input_tokens: number; output_tokens: number; latency_ms: number }[];
}

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
