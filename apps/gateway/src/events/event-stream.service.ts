import { Inject, Injectable, type MessageEvent } from '@nestjs/common';
import { Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { SESSION_STORE } from '@nl2p/workflow-runtime';
import { EventHub, type SessionStore } from '@nl2p/session-store';

/** Stream ids look like `1700000000000-0`; anything else is not a resume point we issued. */
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export function isStreamId(id: string | undefined): id is string {
  return !!id && STREAM_ID.test(id);
}

/**
 * Follows one turn of a session as Server-Sent Events: replays what the bounded Redis Stream
 * still holds after the resume point, then new events as they come (all followers of this process
 * share the {@link EventHub}'s one blocking connection); heartbeats keep proxies from closing an
 * idle stream; after the turn's `turn_end` it sends `end` and completes.
 */
@Injectable()
export class EventStreamService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hub: EventHub,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {}

  follow(sessionId: string, turnId: number, after: string): Observable<MessageEvent> {
    return new Observable<MessageEvent>((subscriber) => {
      const heartbeatMs = this.config.sse.heartbeatMs;
      let cursor = after;
      let lastBeat = Date.now();
      let lastEvent = Date.now();
      let checking = false;
      let done = false;
      const finish = (id: string, status: string) => {
        done = true;
        subscriber.next({ id, type: 'end', data: { turn_id: turnId, status } });
        subscriber.complete();
      };

      const subscription = this.hub.subscribe(sessionId, after, {
        onEvents: (batch) => {
          if (done) return;
          lastEvent = Date.now();
          for (const { id, event } of batch) {
            cursor = id;
            if (event.turn_id !== turnId) continue;
            subscriber.next({ id, type: event.type, data: event });
            if (event.type === 'turn_end') return finish(id, event.status);
          }
        },
        onError: (err) => {
          if (!done) subscriber.error(err);
        },
      });

      const timer = setInterval(
        () => {
          if (done) return;
          if (Date.now() - lastBeat >= heartbeatMs) {
            lastBeat = Date.now();
            // Carries the cursor as its id: Nest would number an id-less event itself, and a
            // client resuming from that number would get the whole stream again.
            subscriber.next({ id: cursor, type: 'heartbeat', data: { at: new Date().toISOString() } });
          }
          if (checking || Date.now() - lastEvent < 1_000) return;
          // Nothing new for a while: if the checkpoint says the turn is over, its `turn_end` was
          // trimmed from the bounded stream (or the session expired); end cleanly instead of
          // holding the client forever.
          checking = true;
          this.finishedStatus(sessionId, turnId)
            .then((status) => {
              if (status && !done && Date.now() - lastEvent >= 1_000) finish(cursor, status);
            })
            .catch((err: unknown) => {
              if (!done) subscriber.error(err);
            })
            .finally(() => (checking = false));
        },
        Math.max(10, Math.min(heartbeatMs, 1_000)),
      );

      return () => {
        done = true;
        clearInterval(timer);
        subscription.close();
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
}
