import { Inject, Injectable, type MessageEvent, type OnApplicationShutdown } from '@nestjs/common';
import { Observable } from 'rxjs';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { REDIS, SESSION_STORE } from '@nl2p/queue';
import { EventLog, type SessionStore } from '@nl2p/session-store';

/** Stream ids look like `1700000000000-0`; anything else is not a resume point we issued. */
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export function isStreamId(id: string | undefined): id is string {
  return !!id && STREAM_ID.test(id);
}

/**
 * Follows one turn of a session as Server-Sent Events: replays what the bounded Redis Stream
 * still holds after the resume point, then blocks for new events; heartbeats keep proxies from
 * closing an idle stream; after the turn's `turn_end` it sends `end` and completes.
 */
@Injectable()
export class EventStreamService implements OnApplicationShutdown {
  private readonly open = new Set<Redis>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly events: EventLog,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {}

  follow(sessionId: string, turnId: number, after: string): Observable<MessageEvent> {
    return new Observable<MessageEvent>((subscriber) => {
      const blocking = this.redis.duplicate();
      this.open.add(blocking);
      let closed = false;
      let lastBeat = Date.now();
      const heartbeatMs = this.config.sse.heartbeatMs;

      const loop = async () => {
        let cursor = after;
        while (!closed) {
          const wait = Math.max(1, Math.min(heartbeatMs - (Date.now() - lastBeat), 5_000));
          const waitedFrom = Date.now();
          const batch = await this.events.waitAfter(blocking, sessionId, cursor, wait);
          if (!batch.length && Date.now() - waitedFrom >= 1_000) {
            // Nothing new for a while: if the checkpoint says the turn is over, its `turn_end`
            // was trimmed from the bounded stream (or the session expired); end cleanly instead
            // of holding the client forever.
            const status = await this.finishedStatus(sessionId, turnId);
            if (status) {
              subscriber.next({ id: cursor, type: 'end', data: { turn_id: turnId, status } });
              subscriber.complete();
              return;
            }
          }
          for (const { id, event } of batch) {
            cursor = id;
            if (event.turn_id !== turnId) continue;
            subscriber.next({ id, type: event.type, data: event });
            if (event.type === 'turn_end') {
              subscriber.next({ id, type: 'end', data: { turn_id: turnId, status: event.status } });
              subscriber.complete();
              return;
            }
          }
          if (Date.now() - lastBeat >= heartbeatMs) {
            lastBeat = Date.now();
            // Carries the cursor as its id: Nest would number an id-less event itself, and a
            // client resuming from that number would get the whole stream again.
            subscriber.next({ id: cursor, type: 'heartbeat', data: { at: new Date().toISOString() } });
          }
        }
      };
      loop().catch((err: unknown) => {
        if (!closed) subscriber.error(err);
      });

      return () => {
        closed = true;
        this.open.delete(blocking);
        blocking.disconnect();
      };
    });
  }

  private async finishedStatus(sessionId: string, turnId: number): Promise<string | null> {
    const current = await this.store.get(sessionId);
    if (!current) return 'expired';
    if (current.turn_id > turnId) return 'superseded';
    if (current.turn_id === turnId && current.status !== 'running') return current.status;
    return null;
  }

  onApplicationShutdown(): void {
    for (const c of this.open) c.disconnect();
  }
}
