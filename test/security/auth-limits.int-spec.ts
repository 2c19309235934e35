import { createHash } from 'node:crypto';
import { LlmScript } from '../support/llm-script';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'key-of-acme-0123456789';
const KEY_B = 'key-of-globex-9876543210';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";

describe('auth, tenant isolation and limits at the gateway', () => {
  const w = useWorkflowStack({
    env: {
      AUTH_DISABLED: 'false',
      API_KEYS: `acme:${sha(KEY_A)},globex:${sha(KEY_B)}`,
      RATE_LIMIT_PER_MINUTE: '40',
      MAX_BODY_BYTES: '2048',
      MAX_TURNS_PER_SESSION: '3',
      MAX_TURN_TEXT: '1000',
    },
  });
  const { llm } = w;
  let base: string;

  beforeAll(() => {
    base = w.stack.gatewayUrl;
  });

  async function call(
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = text;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: json, headers: res.headers };
  }

  it('401 without a key and with a wrong key; health stays public', async () => {
    const none = await call('POST', '/v1/sessions', null, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await call('POST', '/v1/sessions', 'not-a-key', {});
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain('not-a-key');
    expect((await call('GET', '/health', null)).status).toBe(200);
    expect((await call('GET', '/openapi.json', null)).status).toBe(200);
  });

  it("another tenant's session is 404 on view, turns, events, trace and cancel", async () => {
    new LlmScript(llm).route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
    const created = await call('POST', '/v1/sessions', KEY_A, {});
    expect(created.status).toBe(201);
    const id = created.body.session_id as string;
    const turn = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { text: 'avg temp per device', wait: true });
    expect(turn.body.interrupt.type).toBe('need_confirm');

    for (const [method, path, body] of [
      ['GET', `/v1/sessions/${id}`, undefined],
      ['POST', `/v1/sessions/${id}/turns`, { confirm: true }],
      ['GET', `/v1/sessions/${id}/events?turn=1`, undefined],
      ['GET', `/v1/sessions/${id}/trace`, undefined],
      ['GET', `/sessions/${id}/trace`, undefined],
      ['POST', `/v1/sessions/${id}/turns/current/cancel`, undefined],
    ] as const) {
      const res = await call(method, path, KEY_B, body);
      expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
      // Same answer as for a session that never existed: existence is not disclosed.
      expect(res.body.message).toBe(`session ${id} not found`);
    }
    // The seed endpoint too.
    const seed = await call('POST', '/nl2pipeline/turn', KEY_B, { session_id: id, confirm: true });
    expect(seed.status).toBe(404);
    // The owner still can.
    expect((await call('GET', `/v1/sessions/${id}`, KEY_A)).status).toBe(200);
  });

  it('413 for an oversize body and 400 for malformed input, each naming the problem', async () => {
    const big = await call('POST', '/v1/sessions', KEY_A, { stream: 'x'.repeat(5_000) });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('request body is larger than the limit of 2048 bytes');
    const notJson = await call('POST', '/v1/sessions', KEY_A, '{"stream": ');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toMatch(/^request body is not valid JSON/);
    const id = (await call('POST', '/v1/sessions', KEY_A, {})).body.session_id;
    const long = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { text: 'y'.repeat(1_900) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body.message)).toContain('text must be shorter than or equal to 1000 characters');
    const badType = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { confirm: 'yes' });
    expect(badType.status).toBe(400);
    expect(JSON.stringify(badType.body.message)).toContain('confirm must be a boolean value');
  });

  it('refuses turns past the per-session limit with a clear 409', async () => {
    const script = new LlmScript(llm);
    const id = (await call('POST', '/v1/sessions', KEY_A, {})).body.session_id;
    for (let i = 0; i < 3; i++) {
      script.route({ intent: 'list_streams', stream: null, question: null });
      const ok = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { text: 'which streams?', wait: true });
      expect(ok.status).toBe(200);
    }
    const over = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { text: 'which streams?' });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('limit of 3 turns');
  });

  it('429 with Retry-After once a tenant passes its rate limit; other tenants are unaffected', async () => {
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 60 && !limited; i++) {
      const res = await call('GET', `/v1/sessions/${'0'.repeat(32)}`, KEY_A);
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', `/v1/sessions/${'0'.repeat(32)}`, KEY_B)).status).toBe(404);
    expect((await call('GET', '/health', null)).status).toBe(200);
  });

  it('sends security headers', async () => {
    const res = await call('GET', '/health', null);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
