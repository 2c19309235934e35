import type { Redis } from 'ioredis';
import { parseEnvelope, type Envelope } from '@nl2p/envelope';
import type { RedisKeys } from './keys';

/**
 * Where sessions are checkpointed. Behind an interface so another store can be plugged in
 * (ARCHITECTURE §5); Redis is the one shipped.
 */
export interface SessionStore {
  /** Stores a brand-new session; false when the id is taken. */
  create(envelope: Envelope): Promise<boolean>;
  get(sessionId: string): Promise<Envelope | null>;
  /**
   * Replaces the checkpoint only if it is still at `expectedVersion`; the stored envelope gets
   * version `expectedVersion + 1`, which is returned. `null` when someone else moved first.
   */
  compareAndSet(expectedVersion: number, next: Envelope): Promise<Envelope | null>;
  delete(sessionId: string): Promise<void>;
}

// Checks the version and writes in one step, so two writers can never both win.
const CAS_SCRIPT = `
local cur = redis.call('HGET', KEYS[1], 'version')
if not cur or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'envelope', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
`;

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly ttlSeconds: number,
  ) {}

  async create(envelope: Envelope): Promise<boolean> {
    const key = this.keys.session(envelope.session_id);
    const created = await this.redis.hsetnx(key, 'version', String(envelope.version));
    if (!created) return false;
    await this.redis.multi().hset(key, 'envelope', JSON.stringify(envelope)).expire(key, this.ttlSeconds).exec();
    return true;
  }

  async get(sessionId: string): Promise<Envelope | null> {
    const raw = await this.redis.hget(this.keys.session(sessionId), 'envelope');
    return raw ? parseEnvelope(JSON.parse(raw)) : null;
  }

  async compareAndSet(expectedVersion: number, next: Envelope): Promise<Envelope | null> {
    const stored: Envelope = { ...next, version: expectedVersion + 1, updated_at: new Date().toISOString() };
    const ok = await this.redis.eval(
      CAS_SCRIPT,
      1,
      this.keys.session(next.session_id),
      String(expectedVersion),
      String(stored.version),
      JSON.stringify(stored),
      String(this.ttlSeconds),
    );
    return ok === 1 ? stored : null;
  }

  async delete(sessionId: string): Promise<void> {
    await this.redis.del(this.keys.session(sessionId), this.keys.events(sessionId), this.keys.trace(sessionId));
  }
}
