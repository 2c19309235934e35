/**
 * The gateway answered with an HTTP error (`status` ≥ 400), or could not be reached at all
 * (`status` 0: refused, unknown host, no answer in time). `detail` is the gateway's own wording.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly status: number,
    readonly detail: string,
    /** `METHOD /path` of the call. */
    readonly call: string,
    /** Seconds to wait, from `Retry-After` (429). */
    readonly retryAfter?: string,
    options?: ErrorOptions,
  ) {
    super(status === 0 ? detail : `gateway answered ${status} on ${call}: ${detail}`, options);
  }

  get unreachable(): boolean {
    return this.status === 0;
  }
}

/** Nest error bodies carry `message` (a string, or a list for validation errors). */
export function detailOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string') return message;
    if (typeof error === 'string') return error;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().split('\n')[0]?.slice(0, 300) ?? '';
  return `HTTP ${status}`;
}

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND…), else its cause's message. */
export function causeCode(err: unknown): string | undefined {
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
