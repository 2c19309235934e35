import { createParser } from 'eventsource-parser';
import type { SessionEvent } from '@nl2p/envelope';
import { detailOf, GatewayError } from './errors';
import type { Gateway } from './client';

export interface FollowOptions {
  /** Stops following; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Reconnections in a row (refused, 5xx, a stream that closes without a word) before giving up. */
  maxFailures?: number;
}

/** What one connection to the event stream ended with. */
type Outcome = { ended: { status: string } } | { heard: boolean };

/**
 * Follows one turn's Server-Sent Events until the gateway sends `end` (resolves with its status).
 * A dropped connection is resumed with the standard `Last-Event-ID` header, so each event arrives
 * exactly once. Uses fetch rather than `EventSource`, which cannot send the API key.
 */
export async function followTurn(
  gateway: Gateway,
  id: string,
  turn: number,
  onEvent: (e: SessionEvent) => void,
  { signal, maxFailures = 6 }: FollowOptions = {},
): Promise<{ status: string }> {
  const cursor = { lastEventId: undefined as string | undefined };
  let failures = 0;
  for (;;) {
    let outcome: Outcome;
    try {
      outcome = await connectOnce(gateway, id, turn, onEvent, cursor, signal);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      // A refusal (no such session, a bad key) will not change by asking again.
      if (err instanceof GatewayError && err.status >= 400 && err.status < 500) throw err;
      if (++failures > maxFailures) throw err;
      await pause(backoffMs(failures), signal);
      continue;
    }
    if ('ended' in outcome) return outcome.ended;
    // A stream that closed at once, without a word, counts as a failure too: no endless retries.
    if (outcome.heard) failures = 0;
    else if (++failures > maxFailures)
      throw new GatewayError(0, 'the event stream keeps closing without an event', `GET /v1/sessions/${id}/events`);
    await pause(backoffMs(failures), signal);
  }
}

async function connectOnce(
  gateway: Gateway,
  id: string,
  turn: number,
  onEvent: (e: SessionEvent) => void,
  cursor: { lastEventId: string | undefined },
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  const what = `GET /v1/sessions/${id}/events`;
  let ended: { status: string } | undefined;
  let heard = false;
  const parser = createParser({
    onEvent: (message) => {
      heard = true;
      if (message.id) cursor.lastEventId = message.id;
      if (message.event === 'end') ended = { status: String(parseJson<{ status?: unknown }>(message.data)?.status) };
      else if (message.event !== 'heartbeat') {
        const event = parseJson<SessionEvent>(message.data);
        if (event) onEvent(event);
      }
    },
  });
  let res: Response;
  try {
    res = await fetch(`${gateway.baseUrl}/v1/sessions/${encodeURIComponent(id)}/events?turn=${turn}`, {
      headers: gateway.headers({
        accept: 'text/event-stream',
        ...(cursor.lastEventId ? { 'last-event-id': cursor.lastEventId } : {}),
      }),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw gateway.unreachable(what, err);
  }
  if (!res.ok || !res.body) {
    const text = await res.text();
    throw new GatewayError(res.status, detailOf(res.status, parseJson(text) ?? text), what);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return ended ? { ended } : { heard };
      parser.feed(value);
      if (ended) return { ended };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function backoffMs(failures: number): number {
  return Math.min(2_000, 150 * 2 ** failures);
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
