/** Every Redis key the product writes, in one place, under one prefix. */
export class RedisKeys {
  constructor(readonly prefix: string) {}
  session(id: string): string {
    return `${this.prefix}:session:${id}`;
  }
  events(id: string): string {
    return `${this.prefix}:session:${id}:events`;
  }
  /** The last turn whose `turn_end` was appended (so it is appended once, whoever ends it). */
  turnEnded(id: string): string {
    return `${this.prefix}:session:${id}:ended`;
  }
  /**
   * Every session's `turn_end`, one stream for the deployment (capped), beside each session's own
   * stream: what a turn waiting for its answer follows, so it wakes once, at its end, instead of at
   * every event of its session (see EventHub.subscribeTurnEnds).
   */
  turnEnds(): string {
    return `${this.prefix}:turn-ends`;
  }
  /** One gateway process's wake-up stream for its event hub (see EventHub). */
  hubWake(instance: string): string {
    return `${this.prefix}:hub:${instance}:wake`;
  }
  /**
   * A tenant's sessions, newest first: a sorted set whose members (all scored 0) are
   * `{created ms, zero-padded}:{session id}`, so paging by member is exact (see listForTenant).
   */
  tenantSessions(tenant: string): string {
    return `${this.prefix}:tenant:${tenant}:sessions`;
  }
  /** A tenant's glossary: a hash from each term's key (see `termKey`) to its entry, never expiring. */
  glossary(tenant: string): string {
    return `${this.prefix}:tenant:${tenant}:glossary`;
  }

  /** When a term of the tenant's glossary was last forgotten (ISO time), never expiring. */
  glossaryForgotten(tenant: string): string {
    return `${this.prefix}:tenant:${tenant}:glossary-forgotten-at`;
  }

  /** A tenant's confirmed requests and their SQL: a hash from each request's key to its example. */
  examples(tenant: string): string {
    return `${this.prefix}:tenant:${tenant}:examples`;
  }
  trace(id: string): string {
    return `${this.prefix}:session:${id}:trace`;
  }
  /** Sorted set of sessions whose turn is running, scored by their last checkpoint (ms). */
  running(): string {
    return `${this.prefix}:running`;
  }
  /** The janitor's counters (a hash ops and tests can read). */
  janitorStats(): string {
    return `${this.prefix}:janitor:stats`;
  }
  /** The last sweeps (replica, job, start, end, what was swept), newest first, capped. */
  janitorSweeps(): string {
    return `${this.prefix}:janitor:sweeps`;
  }
  /** When the janitor first saw each temp pipeline (the Manager keeps no timestamps). */
  janitorFirstSeen(): string {
    return `${this.prefix}:janitor:tmp-first-seen`;
  }
  /** Held by the replica that sweeps, so two sweeps never overlap. */
  janitorLock(): string {
    return `${this.prefix}:janitor:lock`;
  }
  catalog(target: string, hash: string): string {
    return `${this.prefix}:catalog:${target}:${hash}`;
  }
  catalogCurrent(target: string, engine: string): string {
    return `${this.prefix}:catalog-current:${target}:${engine}`;
  }
}
