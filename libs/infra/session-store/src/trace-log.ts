import type { Redis } from 'ioredis';
import type { NodeTraceRecord } from '@nl2p/envelope';
import type { RedisKeys } from './keys';

export type { NodeTraceRecord };

/** Bounded per-session list of node records, oldest first. */
export class TraceLog {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly maxRecords: number,
    private readonly ttlSeconds: number,
  ) {}

  async append(sessionId: string, record: NodeTraceRecord): Promise<void> {
    const key = this.keys.trace(sessionId);
    await this.redis
      .multi()
      .rpush(key, JSON.stringify(record))
      .ltrim(key, -this.maxRecords, -1)
      .expire(key, this.ttlSeconds)
      .exec();
  }

  async list(sessionId: string, turnId?: number): Promise<NodeTraceRecord[]> {
    const rows = await this.redis.lrange(this.keys.trace(sessionId), 0, -1);
    const records = rows.map((r) => JSON.parse(r) as NodeTraceRecord);
    return turnId === undefined ? records : records.filter((r) => r.turn_id === turnId);
  }
}
