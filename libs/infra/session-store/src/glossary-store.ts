import type { Redis } from 'ioredis';
import { GlossaryEntrySchema, termKey, type GlossaryEntry, type WordMeaning } from '@nl2p/envelope';
import type { RedisKeys } from './keys';

// Replaces a field only if it still holds what was read, so an update keeps the entry's creation
// (who and when) even when two writers race: the loser reads again.
const REPLACE_IF_UNCHANGED = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`;

const UPDATE_ATTEMPTS = 5;

/** One term to store: the term as written, what it means, who teaches it. */
export interface GlossaryWrite {
  term: string;
  means: WordMeaning;
  by: string;
}

/**
 * Each tenant's glossary in Redis: one hash per tenant (`RedisKeys.glossary`), one field per term.
 * The keys never expire, so entries last as long as Redis keeps its data (the product runs Redis
 * with append-only persistence: docker-compose, the k8s manifests and `npm start`).
 */
export class GlossaryStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** The tenant's entries, by term. An entry that no longer parses is an error, never skipped silently. */
  async list(tenant: string): Promise<GlossaryEntry[]> {
    const raw = await this.redis.hgetall(this.keys.glossary(tenant));
    return Object.values(raw)
      .map((json) => parseEntry(json))
      .sort((a, b) => termKey(a.term).localeCompare(termKey(b.term)));
  }

  async get(tenant: string, term: string): Promise<GlossaryEntry | null> {
    const json = await this.redis.hget(this.keys.glossary(tenant), termKey(term));
    return json === null ? null : parseEntry(json);
  }

  /** Stores a new term; null when the tenant has it already. */
  async create(tenant: string, w: GlossaryWrite, now = new Date()): Promise<GlossaryEntry | null> {
    const at = now.toISOString();
    const entry: GlossaryEntry = {
      term: w.term.trim(),
      means: w.means,
      tenant,
      created_by: w.by,
      created_at: at,
      updated_at: at,
    };
    const added = await this.redis.hsetnx(this.keys.glossary(tenant), termKey(w.term), JSON.stringify(entry));
    return added ? entry : null;
  }

  /** Replaces a term's meaning (its creation kept); null when the tenant has no such term. */
  async update(tenant: string, term: string, means: WordMeaning, now = new Date()): Promise<GlossaryEntry | null> {
    const key = this.keys.glossary(tenant);
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const old = await this.redis.hget(key, termKey(term));
      if (old === null) return null;
      const entry: GlossaryEntry = { ...parseEntry(old), means, updated_at: now.toISOString() };
      const json = JSON.stringify(entry);
      if (await this.redis.eval(REPLACE_IF_UNCHANGED, 1, key, termKey(term), old, json)) return entry;
    }
    throw new Error(`the glossary term '${term}' kept changing while it was updated; try again`);
  }

  /**
   * False when there was no such term. A term forgotten leaves when it was forgotten, so what was
   * decided with its meaning can tell the glossary changed since (see {@link lastChange}).
   */
  async delete(tenant: string, term: string, now = new Date()): Promise<boolean> {
    const removed = (await this.redis.hdel(this.keys.glossary(tenant), termKey(term))) > 0;
    if (removed) await this.redis.set(this.keys.glossaryForgotten(tenant), now.toISOString());
    return removed;
  }

  /** When the tenant's glossary last changed (a term taught, changed or forgotten); '' when never. */
  async lastChange(tenant: string): Promise<string> {
    const [entries, forgotten] = await Promise.all([
      this.list(tenant),
      this.redis.get(this.keys.glossaryForgotten(tenant)),
    ]);
    return entries.reduce((last, e) => (e.updated_at > last ? e.updated_at : last), forgotten ?? '');
  }

  /**
   * Stores every term of a file in one step (all or none): new terms are created, known ones get
   * the file's meaning and keep their creation. Terms absent from the file are kept.
   */
  async importAll(tenant: string, writes: readonly GlossaryWrite[], now = new Date()) {
    const key = this.keys.glossary(tenant);
    const at = now.toISOString();
    const existing = new Map((await this.list(tenant)).map((e) => [termKey(e.term), e]));
    const multi = this.redis.multi();
    let created = 0;
    for (const w of writes) {
      const old = existing.get(termKey(w.term));
      if (!old) created++;
      const entry: GlossaryEntry = old
        ? { ...old, term: w.term.trim(), means: w.means, updated_at: at }
        : { term: w.term.trim(), means: w.means, tenant, created_by: w.by, created_at: at, updated_at: at };
      multi.hset(key, termKey(w.term), JSON.stringify(entry));
    }
    const results = await multi.exec();
    const failed = results?.find(([err]) => err);
    if (!results || failed) throw new Error('the glossary import was not stored', { cause: failed?.[0] });
    return { created, updated: writes.length - created };
  }
}

function parseEntry(json: string): GlossaryEntry {
  return GlossaryEntrySchema.parse(JSON.parse(json));
}
