import { BadRequestException, ConflictException, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Envelope } from '@nl2p/envelope';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { REDIS, SESSION_STORE } from '@nl2p/workflow-runtime';
import type { SessionStore } from '@nl2p/session-store';

/**
 * Concurrent turns per tenant. The set of a tenant's running sessions lives in Redis (shared by
 * gateway replicas); an entry whose session no longer runs is dropped when the limit is checked,
 * so a turn that ended in a worker needs no bookkeeping there.
 */
@Injectable()
export class TenantLimits {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {}

  private key(tenant: string): string {
    return `${this.config.redis.prefix}:tenant:${tenant}:running`;
  }

  /**
   * The limits a turn must fit before it starts, each with a clear 4xx: text length (400), turns
   * per session (409), concurrent turns per tenant (429). Admitted turns are counted as running.
   */
  async admitTurn(session: Envelope, input: { text?: string; feedback?: string; sql?: string }): Promise<void> {
    const max = this.config.limits.turnTextMax;
    for (const field of ['text', 'feedback', 'sql'] as const) {
      const value = input[field];
      if (value !== undefined && value.length > max) {
        throw new BadRequestException([`${field} must be shorter than or equal to ${max} characters`]);
      }
    }
    if (session.turn_id >= this.config.limits.turnsPerSession) {
      throw new ConflictException(
        `session ${session.session_id} reached its limit of ${this.config.limits.turnsPerSession} turns; start a new session`,
      );
    }
    if (session.status !== 'running' && !(await this.canStartTurn(session.tenant))) {
      throw new HttpException(
        `tenant ${session.tenant} already runs ${this.config.limits.concurrentTurnsPerTenant} turns; wait for one to finish`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    await this.turnStarted(session.tenant, session.session_id);
  }

  /** Whether the tenant may start one more turn now. */
  async canStartTurn(tenant: string): Promise<boolean> {
    const max = this.config.limits.concurrentTurnsPerTenant;
    const key = this.key(tenant);
    const members = await this.redis.smembers(key);
    if (members.length < max) return true;
    for (const id of members) {
      const s = await this.store.get(id);
      if (!s || s.status !== 'running') await this.redis.srem(key, id);
    }
    return (await this.redis.scard(key)) < max;
  }

  async turnStarted(tenant: string, sessionId: string): Promise<void> {
    await this.redis
      .multi()
      .sadd(this.key(tenant), sessionId)
      .expire(this.key(tenant), this.config.retention.sessionTtlSeconds)
      .exec();
  }
}
