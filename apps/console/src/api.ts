import { Gateway, GatewayError } from '@nl2p/gateway-client';

// The console reaches the gateway only through its generated client (same origin); this file
// keeps the API key for the tab and says a gateway error in plain words.

export type {
  RunResult,
  SessionSummary,
  SessionView,
  StreamInfo,
  StreamList,
  TargetList,
  TraceRecord,
  TurnBody,
} from '@nl2p/gateway-client';
export { GatewayError };

const KEY_STORAGE = 'nl2p.apiKey';

/** The gateway client with the key this tab was given (kept for the tab only, never in a cookie). */
export class ConsoleApi {
  apiKey: string | null;
  gw: Gateway;

  constructor(private readonly base = '') {
    this.apiKey = sessionStorage.getItem(KEY_STORAGE);
    this.gw = this.client();
  }

  setKey(key: string | null): void {
    this.apiKey = key;
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
    this.gw = this.client();
  }

  private client(): Gateway {
    return new Gateway({ baseUrl: this.base, apiKey: this.apiKey ?? undefined });
  }
}

/** A failure as a person reads it: the product's own words, or what to do when the gateway is away. */
export function plainMessage(err: unknown): string {
  if (err instanceof GatewayError) {
    return err.unreachable ? 'The gateway cannot be reached. Is it running?' : err.detail;
  }
  return err instanceof Error ? err.message : String(err);
}
