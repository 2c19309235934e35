import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { countCatalogLookup } from '@nl2p/metrics';
import type { RedisKeys } from './keys';

/**
 * The grounding catalog (functions + syntax) is large and the same for every session of an
 * engine, so it is stored once by content hash and only the hash rides in the envelope.
 */
export class CatalogCache<T> {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly ttlSeconds: number,
  ) {}

  /** The hash of the engine's current catalog, loading and storing it when the TTL ran out. */
  async currentHash(target: string, engine: string, load: () => Promise<T>): Promise<string> {
    const pointer = this.keys.catalogCurrent(target, engine);
    const hash = await this.redis.get(pointer);
    if (hash && (await this.redis.exists(this.keys.catalog(target, hash)))) {
      countCatalogLookup(true);
      return hash;
    }
    countCatalogLookup(false);
    const catalog = await load();
    const body = JSON.stringify(catalog);
    const fresh = createHash('sha256').update(body).digest('hex').slice(0, 16);
    // The catalog body outlives the pointer, so sessions holding an older hash can still read it.
    await this.redis
      .multi()
      .set(this.keys.catalog(target, fresh), body, 'EX', this.ttlSeconds * 12)
      .set(pointer, fresh, 'EX', this.ttlSeconds)
      .exec();
    return fresh;
  }

  async get(target: string, hash: string): Promise<T | null> {
    const body = await this.redis.get(this.keys.catalog(target, hash));
    return body ? (JSON.parse(body) as T) : null;
  }
}
