import type { Redis } from 'ioredis';
import type { SessionEvent } from '@nl2p/envelope';
import type { RedisKeys } from './keys';

export interface StoredEvent {
  /** Redis Stream entry id; doubles as the SSE `id` for `Last-Event-ID` resume. */
  id: string;
  event: SessionEvent;
}

/** A bounded per-session Redis Stream of workflow events (ARCHITECTURE §6). */
export class EventLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly maxLen: number,
    private readonly ttlSeconds: number,
  ) {}

  async append(sessionId: string, event: SessionEvent): Promise<string> {
    const key = this.keys.events(sessionId);
    // Two plain commands, not a MULTI: nothing needs them atomic (the TTL is renewed by every
    // checkpoint too), and on an auto-pipelining connection they share one write with whatever
    // else was issued in the same tick (a burst of draft deltas, other jobs' events).
    const [id] = await Promise.all([
      this.redis.xadd(key, 'MAXLEN', '~', String(this.maxLen), '*', 'e', JSON.stringify(event)),
      this.redis.expire(key, this.ttlSeconds),
    ]);
    if (!id) throw new Error(`event of session ${sessionId} not appended`);
    return id;
  }

  /** Events after `afterId` (exclusive), in order. */
  async range(sessionId: string, afterId = '-', count = 1_000): Promise<StoredEvent[]> {
    const start = afterId === '-' ? '-' : `(${afterId}`;
    const rows = await this.redis.xrange(this.keys.events(sessionId), start, '+', 'COUNT', count);
    return rows.map(toStored);
  }

  /** The id of the newest event, or `0-0` when there is none. */
  async lastId(sessionId: string): Promise<string> {
    const rows = await this.redis.xrevrange(this.keys.events(sessionId), '+', '-', 'COUNT', 1);
    return rows[0]?.[0] ?? '0-0';
  }

  /**
   * Where a turn starting now follows its end from (the newest entry of the deployment's
   * turn-end stream, see {@link EventHub.subscribeTurnEnds}), or `0-0` when there is none.
   */
  async lastTurnEndId(): Promise<string> {
    const rows = await this.redis.xrevrange(this.keys.turnEnds(), '+', '-', 'COUNT', 1);
    return rows[0]?.[0] ?? '0-0';
  }
}

export function toStored([id, fields]: [string, string[]]): StoredEvent {
  const idx = fields.indexOf('e');
  return { id, event: JSON.parse(fields[idx + 1]) as SessionEvent };
}

/** The session an entry of the deployment's turn-end stream belongs to. */
export function sessionOf([, fields]: [string, string[]]): string | undefined {
  const idx = fields.indexOf('s');
  return idx >= 0 ? fields[idx + 1] : undefined;
}
