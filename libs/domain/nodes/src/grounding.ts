import type { TargetKind } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import type { CatalogCache } from '@nl2p/session-store';
import type { Engines } from './clients';

/**
 * The engines' catalogs, cached across sessions by engine and TTL; envelopes carry only the hash.
 */
export class Grounding {
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
      const cached = await this.cache.get(target, hash);
      if (cached) return cached;
    }
    const fresh = await this.currentHash(target);
    const catalog = await this.cache.get(target, fresh);
    if (!catalog) throw new Error(`catalog ${fresh} vanished from the cache right after it was stored`);
    return catalog;
  }
}
