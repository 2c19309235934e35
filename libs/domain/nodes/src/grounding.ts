import type { Catalog, EngineTarget } from '@nl2p/engine';
import type { CatalogCache } from '@nl2p/session-store';

/**
 * The engine's catalog, cached across sessions by engine and TTL; envelopes carry only its hash.
 */
export class Grounding {
  constructor(
    private readonly engine: EngineTarget,
    private readonly cache: CatalogCache<Catalog>,
    /** Identifies the engine instance (its URL), so two engines never share a cache entry. */
    private readonly engineKey: string,
  ) {}

  currentHash(): Promise<string> {
    return this.cache.currentHash(this.engine.kind, this.engineKey, () => this.engine.loadCatalog());
  }

  /** The catalog a session was grounded in; reloaded if the cache lost it. */
  async catalog(hash: string | null): Promise<Catalog> {
    if (hash) {
      const cached = await this.cache.get(this.engine.kind, hash);
      if (cached) return cached;
    }
    const fresh = await this.currentHash();
    const catalog = await this.cache.get(this.engine.kind, fresh);
    if (!catalog) throw new Error(`catalog ${fresh} vanished from the cache right after it was stored`);
    return catalog;
  }
}
