import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  id: string | undefined;
  type: string;
  data: any;
}

/**
 * Reads an SSE endpoint until `stop` says so or the server ends the stream; `stop` returning
 * true closes the connection from the client side (a disconnect mid-turn).
 */
export async function readSse(
  url: string,
  opts: { lastEventId?: string; stop?: (e: SseEvent, all: SseEvent[]) => boolean; timeoutMs?: number } = {},
): Promise<{ events: SseEvent[]; ended: 'server' | 'client' }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`SSE read timed out: ${url}`)), opts.timeoutMs ?? 20_000);
  const events: SseEvent[] = [];
  let stopped = false;
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      if (stopped) return;
      const e = { id: m.id, type: m.event ?? 'message', data: JSON.parse(m.data) };
      events.push(e);
      if (opts.stop?.(e, events)) {
        stopped = true;
        controller.abort();
      }
    },
  });
  try {
    const res = await fetch(url, {
      headers: { accept: 'text/event-stream', ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}) },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`SSE ${url}: HTTP ${res.status} ${await res.text()}`);
    const decoder = new TextDecoder();
    for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    return { events, ended: 'server' };
  } catch (err) {
    if (stopped) return { events, ended: 'client' };
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
