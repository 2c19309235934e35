import { Gateway, type GatewayError } from '@nl2p/gateway-client';

// The CLI reaches the workflow only through the gateway's generated client (@nl2p/gateway-client);
// this file turns its errors into the one-line advice a person at a terminal needs.

export type { SessionView, StreamInfo, StreamList, TraceRecord, TurnBody } from '@nl2p/gateway-client';

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

/** A gateway error as the person should read it, with what to set when it is theirs to fix. */
function toCliError(err: GatewayError): CliError {
  if (err.unreachable) {
    const hint = err.detail.startsWith('cannot reach') ? ': is it running? (set --url or NL2P_URL)' : '';
    return new GatewayUnreachableError(`${err.detail}${hint}`);
  }
  if (err.status === 401 || err.status === 403) {
    return new CliError(
      `the gateway refused the request (${err.status}): ${err.detail}; set --api-key or NL2P_API_KEY`,
    );
  }
  if (err.status === 429) {
    return new CliError(
      `the gateway is rate limiting this key${err.retryAfter ? `: retry in ${err.retryAfter} s` : ''}`,
    );
  }
  return new GatewayHttpError(err.status, err.detail, err.call);
}

/** The gateway's generated client, speaking the CLI's errors. */
export class GatewayApi extends Gateway {
  constructor(baseUrl: string, apiKey?: string) {
    super({ baseUrl, apiKey, userAgent: 'nl2pipeline-cli', mapError: toCliError });
  }

  /**
   * Asks the gateway to cancel the running turn. `unsupported` when this gateway has no cancel
   * endpoint (or forgot the turn), `not_running` when nothing runs any more.
   */
  async cancelRunning(id: string): Promise<'cancelled' | 'unsupported' | 'not_running'> {
    try {
      await this.cancelTurn(id);
      return 'cancelled';
    } catch (err) {
      if (err instanceof GatewayHttpError && (err.status === 404 || err.status === 405)) return 'unsupported';
      if (err instanceof GatewayHttpError && err.status === 409) return 'not_running';
      throw err;
    }
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stoppedBy(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(stoppedBy(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function stoppedBy(signal: AbortSignal | undefined): StoppedError {
  const reason: unknown = signal?.reason;
  return reason instanceof StoppedError ? reason : new StoppedError('interrupt');
}
