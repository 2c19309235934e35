import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sessionOf, toStored, type StoredEvent } from './event-log';
import type { RedisKeys } from './keys';

/** What a subscriber is told: new events of its session in order, or that the hub lost Redis. */
export interface EventHubListener {
  onEvents(batch: StoredEvent[]): void;
  onError(err: unknown): void;
}

export interface EventSubscription {
  close(): void;
}

export interface EventHubOptions {
  /** How long one XREAD blocks when nothing arrives (also bounds how stale a closed key stays). */
  blockMs?: number;
  /** Entries read per stream and round. */
  count?: number;
  /** Pause after a failed read before the next, so an outage is not a hot loop. */
  retryMs?: number;
}

interface Subscriber {
  key: string;
  cursor: string;
  listener: EventHubListener;
  /** On the deployment's turn-end stream: only this session's entries are delivered. */
  session?: string;
}

/** Stream ids `ms-seq`: compared as numbers, not strings (`9-0` < `10-0`). */
export function compareStreamIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}

/**
 * Every session event follower of one process (SSE clients, turns waiting for their answer) on
 * ONE blocking Redis connection: a single `XREAD BLOCK` over all the followed sessions' streams,
 * the results fanned out by cursor. A connection per follower would tie the number of open SSE
 * streams to Redis's connection limit.
 *
 * A new follower must not wait for the current read's timeout, so subscribing appends to this
 * hub's own wake-up stream, which every read includes: the read returns and the next one covers
 * the new key. Portable (no `CLIENT UNBLOCK`, which managed Redis services may not allow).
 */
export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly wakeKey: string;
  private wakeCursor = '0-0';
  /** The keys and cursors of the read in flight. */
  private reading = new Map<string, string>();
  private blocking: Redis | null = null;
  private running: Promise<void> | null = null;
  private idle: (() => void) | null = null;
  private closed = false;
  private readonly blockMs: number;
  private readonly count: number;
  private readonly retryMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    options: EventHubOptions = {},
  ) {
    this.wakeKey = keys.hubWake(randomUUID());
    this.blockMs = options.blockMs ?? 5_000;
    this.count = options.count ?? 100;
    this.retryMs = options.retryMs ?? 500;
  }

  /** Delivers the session's events after `afterId` (exclusive) until closed. */
  subscribe(sessionId: string, afterId: string, listener: EventHubListener): EventSubscription {
    return this.follow({ key: this.keys.events(sessionId), cursor: afterId, listener });
  }

  /**
   * Delivers the session's `turn_end` events added to the deployment's turn-end stream after
   * `afterId` (exclusive; see EventLog.lastTurnEndId) until closed. What a turn waiting for its
   * answer needs: it wakes at its turn's end, not at each of the turn's node and draft events. All
   * waiting turns share one key in the hub's read, however many sessions they are in.
   */
  subscribeTurnEnds(sessionId: string, afterId: string, listener: EventHubListener): EventSubscription {
    return this.follow({ key: this.keys.turnEnds(), cursor: afterId, listener, session: sessionId });
  }

  private follow(sub: Subscriber): EventSubscription {
    if (this.closed) throw new Error('the event hub is closed');
    this.subscribers.add(sub);
    this.running ??= this.loop();
    const covering = this.reading.get(sub.key);
    if (this.idle) {
      this.idle();
      this.idle = null;
    } else if (covering === undefined || compareStreamIds(sub.cursor, covering) < 0) {
      // The read in flight does not cover this follower: end it, so the next one does. (A turn
      // waiting beside others on the turn-end stream usually is covered already.)
      this.wake();
    }
    return { close: () => this.subscribers.delete(sub) };
  }

  /** Open blocking connections (0 or 1): what the hub exists to bound. */
  get connections(): number {
    return this.blocking ? 1 : 0;
  }

  get size(): number {
    return this.subscribers.size;
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
    this.idle?.();
    this.blocking?.disconnect();
    await this.running?.catch(() => undefined);
    await this.redis.del(this.wakeKey).catch(() => undefined);
  }

  private wake(): void {
    // Fire and forget: a lost wake-up only delays the new follower to the next read's timeout.
    this.redis
      .multi()
      .xadd(this.wakeKey, 'MAXLEN', '1', '*', 'w', '1')
      .pexpire(this.wakeKey, Math.max(60_000, this.blockMs * 4))
      .exec()
      .catch(() => undefined);
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.subscribers.size === 0) {
        await new Promise<void>((resolve) => (this.idle = resolve));
        continue;
      }
      // The oldest cursor per stream: one read serves every follower of that session.
      const cursors = new Map<string, string>();
      for (const s of this.subscribers) {
        const c = cursors.get(s.key);
        if (c === undefined || compareStreamIds(s.cursor, c) < 0) cursors.set(s.key, s.cursor);
      }
      const keys = [...cursors.keys(), this.wakeKey];
      const ids = [...cursors.values(), this.wakeCursor];
      this.reading = cursors;
      let res: [string, [string, string[]][]][] | null;
      try {
        this.blocking ??= this.redis.duplicate();
        res = await this.blocking.xread('COUNT', this.count, 'BLOCK', this.blockMs, 'STREAMS', ...keys, ...ids);
      } catch (err) {
        if (this.closed) return;
        // Every current follower hears of it (as it would have from its own connection); later
        // ones start from a fresh read.
        const failed = [...this.subscribers];
        this.subscribers.clear();
        for (const s of failed) s.listener.onError(err);
        await new Promise((r) => setTimeout(r, this.retryMs));
        continue;
      }
      for (const [key, rows] of res ?? []) {
        if (key === this.wakeKey) {
          const last = rows[rows.length - 1];
          if (last) this.wakeCursor = last[0];
          continue;
        }
        const events = rows.map((row) => ({ stored: toStored(row), session: sessionOf(row) }));
        for (const s of this.subscribers) {
          if (s.key !== key) continue;
          const fresh = events.filter((e) => compareStreamIds(e.stored.id, s.cursor) > 0);
          const last = fresh[fresh.length - 1];
          if (!last) continue;
          // The cursor moves past other sessions' entries too, so the next read starts after them.
          s.cursor = last.stored.id;
          const mine = s.session === undefined ? fresh : fresh.filter((e) => e.session === s.session);
          if (!mine.length) continue;
          try {
            s.listener.onEvents(mine.map((e) => e.stored));
          } catch (err) {
            this.subscribers.delete(s);
            s.listener.onError(err);
          }
        }
      }
    }
  }
}
