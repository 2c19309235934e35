import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

// One round trip, atomic: count the hit, start the window on the first one, and block the key
// for `blockDuration` once the limit is passed. Returns hits, ms to window end, blocked, ms to unblock.
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local blockTtl = redis.call('PTTL', KEYS[2])
if blockTtl <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blockTtl = tonumber(ARGV[3])
end
return { hits, ttl, blockTtl }
`;

/**
 * Rate-limit counters in Redis, so a limit holds across every gateway replica. (The maintained
 * Redis storage for @nestjs/throttler does not support NestJS 12 yet; this is its one method.)
 */
const INCREMENT_COMMAND = 'nl2pThrottleIncrement';
type IncrementCommand = Record<typeof INCREMENT_COMMAND, (...keysThenArgs: (string | number)[]) => Promise<unknown>>;

export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    // Sent by its digest (EVALSHA, loaded on first use), not its text on every request.
    if (!(INCREMENT_COMMAND in redis)) redis.defineCommand(INCREMENT_COMMAND, { numberOfKeys: 2, lua: INCREMENT });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttler: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const base = `${this.prefix}:throttle:${throttler}:${key}`;
    const [hits, ttlMs, blockMs] = (await (this.redis as unknown as IncrementCommand)[INCREMENT_COMMAND](
      base,
      `${base}:blocked`,
      ttl,
      limit,
      blockDuration,
    )) as [number, number, number];
    const blocked = blockMs > 0;
    return {
      totalHits: hits,
      timeToExpire: Math.max(0, Math.ceil(ttlMs / 1000)),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.max(1, Math.ceil(blockMs / 1000)) : 0,
    };
  }
}
