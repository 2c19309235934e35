import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { StoredExampleSchema, type StoredExample } from '@nl2p/envelope';
import type { RedisKeys } from './keys';

/** The key a request is stored under: case and spacing do not make two examples. */
function requestKey(request: string): string {
  return request.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The id an example is forgotten by: its request key hashed, stable across confirmations and opaque. */
export function exampleId(request: string): string {
  return createHash('sha256').update(requestKey(request)).digest('hex').slice(0, 16);
}

/** Newest examples a tenant keeps; an older one is dropped when a new one comes (the hash stays small). */
const MAX_EXAMPLES = 500;

/**
 * Each tenant's confirmed requests with their SQL (`RedisKeys.examples`), never expiring: what a
 * new request close to one of them is shown beside. The same request confirmed again replaces
 * its example (the newest SQL wins).
 */
export class ExampleStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async add(tenant: string, example: Omit<StoredExample, 'confirmed_at'>, now = new Date()): Promise<StoredExample> {
    const stored: StoredExample = { ...example, confirmed_at: now.toISOString() };
    const key = this.keys.examples(tenant);
    await this.redis.hset(key, requestKey(example.request), JSON.stringify(stored));
    const all = await this.list(tenant);
    const dropped = all.slice(MAX_EXAMPLES).map((e) => requestKey(e.request));
    if (dropped.length) await this.redis.hdel(key, ...dropped);
    return stored;
  }

  /** The tenant's examples, newest first. */
  async list(tenant: string): Promise<StoredExample[]> {
    const raw = await this.redis.hgetall(this.keys.examples(tenant));
    return Object.values(raw)
      .map((json) => StoredExampleSchema.parse(JSON.parse(json)))
      .sort((a, b) => b.confirmed_at.localeCompare(a.confirmed_at));
  }

  /**
   * Forgets the tenant's example with `id`; false when the tenant has none such (another tenant's
   * id names nothing here: each tenant's examples are under its own key).
   */
  async remove(tenant: string, id: string): Promise<boolean> {
    const example = (await this.list(tenant)).find((e) => exampleId(e.request) === id);
    if (!example) return false;
    return (await this.redis.hdel(this.keys.examples(tenant), requestKey(example.request))) === 1;
  }
}
