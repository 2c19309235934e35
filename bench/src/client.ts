/** The slice of the session view the bench reads. */
export interface TurnView {
  status: string;
  turn_id: number;
  interrupt: { type: string; question: string } | null;
  sql: string | null;
  error: { node: string | null; message: string } | null;
  attempts: { attempt: number; failures: unknown[] };
}

/** A gateway client over plain HTTP, as any client would call it; sends the API key when given. */
export class BenchClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  async createSession(body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.post('/v1/sessions', body);
    if (res.status !== 201) throw new Error(`create session: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { session_id: string }).session_id;
  }

  /** One turn in wait mode; resolves with the view and the wall-clock time it took. */
  async turn(
    sessionId: string,
    input: Record<string, unknown>,
    timeoutMs = 120_000,
  ): Promise<{ view: TurnView; ms: number }> {
    const started = performance.now();
    const res = await this.post(`/v1/sessions/${sessionId}/turns`, { ...input, wait: true, timeout_ms: timeoutMs });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`turn: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return { view: res.body as TurnView, ms };
  }

  /** A GET that must answer 200; resolves with the parsed body. */
  async get(path: string): Promise<unknown> {
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const res = await fetch(`${this.baseUrl}${path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }

  private async post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const res = await fetch(`${this.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
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
