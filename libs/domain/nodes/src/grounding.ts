import type { TargetKind } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import type { CatalogCache } from '@nl2p/session-store';
import type { Engines } from './clients';

/** Parsed catalogs kept per process (by content hash; the newest few, as an engine's catalog changes rarely). */
const PARSED_CATALOGS_KEPT = 8;

/**
 * The engines' catalogs, cached across sessions by engine and TTL; envelopes carry only the hash.
 * A catalog is addressed by its content's hash, so the parsed copy a process read once stays
 * right for that hash: it is kept (frozen, as it is shared by every node run) instead of being
 * read from Redis and parsed again by every grounding node.
 */
export class Grounding {
  private readonly parsed = new Map<string, Catalog>();

  constructor(
    private readonly engines: Engines,
    private readonly cache: CatalogCache<Catalog>,
  ) {}

  currentHash(target: TargetKind): Promise<string> {
    return this.cache.currentHash(target, this.engines.key(target), () => this.engines.for(target).loadCatalog());
  }

  /** The catalog a session was grounded in; reloaded if the cache lost it. */
  async catalog(target: TargetKind, hash: string | null): Promise<Catalog> {
    if (hash) {
      const cached = await this.byHash(target, hash);
      if (cached) return cached;
    }
    const fresh = await this.currentHash(target);
    const catalog = await this.byHash(target, fresh);
    if (!catalog) throw new Error(`catalog ${fresh} vanished from the cache right after it was stored`);
    return catalog;
  }

  private async byHash(target: TargetKind, hash: string): Promise<Catalog | null> {
    const key = `${target}:${hash}`;
    const kept = this.parsed.get(key);
    if (kept) return kept;
    const read = await this.cache.get(target, hash);
    if (!read) return null;
    const catalog = deepFreeze(read);
    if (this.parsed.size >= PARSED_CATALOGS_KEPT) this.parsed.delete(this.parsed.keys().next().value as string);
    this.parsed.set(key, catalog);
    return catalog;
  }
}

/** Freezes `value` and everything it holds, so a node that would change a shared catalog fails loudly. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
