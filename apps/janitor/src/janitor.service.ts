import { configuredTargets, targetProfile } from '@nl2p/engine';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Span } from '@opentelemetry/api';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { isTmpPipelineId, TargetKind, type Envelope } from '@nl2p/envelope';
import { ownsTmpPipeline, type ReapJobData } from '@nl2p/graph';
import {
  REDIS,
  SESSION_STORE,
  TMP_PIPELINES,
  TurnControl,
  errorMessage,
  type TmpPipelineLedger,
} from '@nl2p/workflow-runtime';
import { RedisKeys, type SessionStore } from '@nl2p/session-store';
import { countTmpSwept } from '@nl2p/metrics';
import { failSpan, tracer } from '@nl2p/telemetry';
import { judgeTmpName, sessionToLookUp, type TmpDeletionReason } from './tmp-verdict';

/** What one sweep did; logged, put on its span, and kept in Redis (`{prefix}:janitor:sweeps`). */
/** A temp pipeline a sweep deleted, and why. */
export interface TmpDeletion {
  id: string;
  reason: TmpDeletionReason;
}

export interface SweepReport {
  replica: string;
  trigger: string;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  /** Temp pipelines the Manager listed. */
  tmp_seen: number;
  /** Deleted, with why. */
  tmp_deleted: TmpDeletion[];
  /** Left alone: an in-flight turn owns them, or another deployment's, still young. */
  tmp_kept: string[];
  /** Under the prefix but in no form the product makes: never touched. */
  tmp_ignored: string[];
  /** Turns ended as failed because they made no progress before the deadline. */
  turns_failed: { session_id: string; turn_id: number; node: string | null }[];
  /** Sessions that expired (TTL) while the running index still named them. */
  sessions_expired: string[];
  errors: string[];
}

/** Counters in `{prefix}:janitor:stats` (a Redis hash): what ops and tests read. */
export const STAT_FIELDS = [
  'sweeps',
  'sweeps_skipped',
  'tmp_deleted',
  'tmp_reaped',
  'turns_failed',
  'sessions_expired',
  'errors',
] as const;

const LOCK_TTL_MS = 10_000;
const LOCK_RENEW_MS = 3_000;
const SWEEPS_KEPT = 100;

const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const RENEW_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/**
 * The janitor's work: deletes the temp pipelines and dry-run streams no in-flight turn owns (or
 * that outlived `JANITOR_TMP_MAX_AGE_MS`), ends turns stuck past `TURN_DEADLINE_MS`, and clears
 * what expired sessions leave in the running index. It touches only names in a form the product
 * makes under the temp prefix ({@link judgeTmpName}).
 *
 * Only one sweep runs at a time across replicas: the BullMQ job scheduler makes each run one job
 * taken by one worker, and a Redis lock keeps a sweep from overlapping a slow previous one (the
 * scheduler queues the next run as soon as the previous starts).
 */
@Injectable()
export class JanitorService {
  private readonly logger = new Logger('Janitor');
  readonly replica = `${hostname()}-${process.pid}-${randomUUID().slice(0, 6)}`;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    private readonly turns: TurnControl,
    @Inject(TMP_PIPELINES) private readonly pipelines: TmpPipelineLedger,
  ) {}

  /** One sweep; `null` when another replica's sweep holds the lock. */
  async sweep(trigger = 'manual'): Promise<SweepReport | null> {
    const token = `${this.replica}:${randomUUID()}`;
    const locked = await this.redis.set(this.keys.janitorLock(), token, 'PX', LOCK_TTL_MS, 'NX');
    if (locked !== 'OK') {
      await this.redis.hincrby(this.keys.janitorStats(), 'sweeps_skipped', 1);
      this.logger.debug?.({ msg: 'sweep skipped: another replica is sweeping', replica: this.replica, trigger });
      return null;
    }
    const renew = setInterval(() => {
      this.redis.eval(RENEW_LOCK, 1, this.keys.janitorLock(), token, String(LOCK_TTL_MS)).catch(() => undefined);
    }, LOCK_RENEW_MS);
    try {
      return await tracer().startActiveSpan('janitor sweep', async (span) => {
        try {
          return await this.sweepLocked(trigger, span);
        } catch (err) {
          failSpan(span, err);
          throw err;
        } finally {
          span.end();
        }
      });
    } finally {
      clearInterval(renew);
      await this.redis.eval(RELEASE_LOCK, 1, this.keys.janitorLock(), token).catch(() => undefined);
    }
  }

  /** Deletes the temp pipelines a turn that ended left behind, unless a running turn owns them. */
  async reap(data: ReapJobData): Promise<string[]> {
    // Only streaming targets create temp pipelines (SQL targets validate with EXPLAIN); a job is
    // data from Redis, so an unknown target is nothing to reap.
    const target = TargetKind.safeParse(data.target);
    if (!target.success || !targetProfile(target.data).streaming) return [];
    const deleted: string[] = [];
    const session = await this.store.get(data.session_id);
    for (const id of data.tmp_ids) {
      if (!isTmpPipelineId(id) || ownsTmpPipeline(session, id)) continue;
      await this.pipelines.delete(target.data, id);
      deleted.push(id);
    }
    if (deleted.length) {
      countTmpSwept('reaped', deleted.length);
      await this.redis.hincrby(this.keys.janitorStats(), 'tmp_reaped', deleted.length);
      this.logger.log({
        msg: 'temp pipelines reaped',
        session_id: data.session_id,
        turn_id: data.turn_id,
        reason: data.reason,
        tmp_deleted: deleted,
      });
    }
    return deleted;
  }

  /** The counters, as numbers (missing ones are 0). */
  async stats(): Promise<Record<(typeof STAT_FIELDS)[number], number>> {
    return readStats(this.redis, this.keys);
  }

  private async sweepLocked(trigger: string, span: Span): Promise<SweepReport> {
    const started = new Date();
    const report: SweepReport = {
      replica: this.replica,
      trigger,
      started_at: started.toISOString(),
      ended_at: '',
      duration_ms: 0,
      tmp_seen: 0,
      tmp_deleted: [],
      tmp_kept: [],
      tmp_ignored: [],
      turns_failed: [],
      sessions_expired: [],
      errors: [],
    };
    await this.sweepTurns(report);
    await this.sweepTmpPipelines(report);

    const ended = new Date();
    report.ended_at = ended.toISOString();
    report.duration_ms = ended.getTime() - started.getTime();
    await this.redis
      .multi()
      .hincrby(this.keys.janitorStats(), 'sweeps', 1)
      .hincrby(this.keys.janitorStats(), 'tmp_deleted', report.tmp_deleted.length)
      .hincrby(this.keys.janitorStats(), 'turns_failed', report.turns_failed.length)
      .hincrby(this.keys.janitorStats(), 'sessions_expired', report.sessions_expired.length)
      .hincrby(this.keys.janitorStats(), 'errors', report.errors.length)
      .lpush(this.keys.janitorSweeps(), JSON.stringify(report))
      .ltrim(this.keys.janitorSweeps(), 0, SWEEPS_KEPT - 1)
      .exec();
    span.setAttributes({
      'nl2p.janitor.replica': this.replica,
      'nl2p.janitor.trigger': trigger,
      'nl2p.janitor.tmp_seen': report.tmp_seen,
      'nl2p.janitor.tmp_deleted': report.tmp_deleted.length,
      'nl2p.janitor.tmp_kept': report.tmp_kept.length,
      'nl2p.janitor.tmp_ignored': report.tmp_ignored.length,
      'nl2p.janitor.turns_failed': report.turns_failed.length,
      'nl2p.janitor.sessions_expired': report.sessions_expired.length,
      'nl2p.janitor.errors': report.errors.length,
    });
    const quiet =
      !report.tmp_deleted.length &&
      !report.turns_failed.length &&
      !report.sessions_expired.length &&
      !report.errors.length;
    const line = { msg: 'janitor sweep', ...report };
    if (report.errors.length) this.logger.warn(line);
    else if (quiet) this.logger.debug?.(line);
    else this.logger.log(line);
    return report;
  }

  /** Turns stuck past the deadline end as failed; index entries of expired sessions go. */
  private async sweepTurns(report: SweepReport): Promise<void> {
    const deadline = this.config.janitor.turnDeadlineMs;
    let entries: { sessionId: string; checkpointAt: number }[];
    try {
      entries = await this.store.listRunning(0, 1_000);
    } catch (err) {
      report.errors.push(`listing running turns: ${errorMessage(err)}`);
      return;
    }
    const forget: string[] = [];
    for (const { sessionId } of entries) {
      const current = await this.store.get(sessionId);
      if (!current) {
        forget.push(sessionId);
        report.sessions_expired.push(sessionId);
        continue;
      }
      if (current.status !== 'running') {
        forget.push(sessionId);
        continue;
      }
      const idleMs = Date.now() - Date.parse(current.updated_at);
      if (idleMs < deadline) continue;
      const seconds = Math.round(idleMs / 1000);
      const message =
        `${current.node ?? 'turn'}: the turn made no progress for ${seconds} s ` +
        `(deadline ${Math.round(deadline / 1000)} s) and was stopped`;
      const ended = await this.failStuck(current, message);
      if (ended) report.turns_failed.push({ session_id: sessionId, turn_id: current.turn_id, node: current.node });
    }
    if (forget.length) await this.store.forgetRunning(forget);
  }

  private async failStuck(current: Envelope, message: string): Promise<boolean> {
    const saved = await this.turns.fail(
      current.session_id,
      current.turn_id,
      { version: current.version },
      current.node,
      message,
    );
    return saved !== null;
  }

  /** Every temp pipeline the streaming targets' engines list: kept while an in-flight turn owns it and it is young. */
  private async sweepTmpPipelines(report: SweepReport): Promise<void> {
    for (const target of configuredTargets(this.config).filter((t) => targetProfile(t).streaming)) {
      await this.sweepTmpPipelinesOf(target, report);
    }
  }

  private async sweepTmpPipelinesOf(target: TargetKind, report: SweepReport): Promise<void> {
    let ids: string[];
    try {
      ids = await this.pipelines.list(target);
    } catch (err) {
      // A deployment that does not default to this target may have no engine for it to list;
      // that is no error worth shouting.
      const message = `listing the ${targetProfile(target).label} pipelines: ${errorMessage(err)}`;
      if (target === this.config.target) report.errors.push(message);
      else this.logger.debug?.({ msg: 'no temp pipelines swept', reason: message });
      return;
    }
    report.tmp_seen += ids.length;
    const firstSeen = await this.firstSeen(ids);
    const sessions = new Map<string, Envelope | null>();
    const now = Date.now();
    for (const id of ids) {
      const sessionId = sessionToLookUp(id, this.config.deploymentId);
      if (sessionId && !sessions.has(sessionId)) sessions.set(sessionId, await this.store.get(sessionId));
      const verdict = judgeTmpName({
        id,
        ageMs: now - (firstSeen.get(id) ?? now),
        deploymentId: this.config.deploymentId,
        session: sessionId ? (sessions.get(sessionId) ?? null) : null,
        tmpMaxAgeMs: this.config.janitor.tmpMaxAgeMs,
        foreignTmpMaxAgeMs: this.config.janitor.foreignTmpMaxAgeMs,
      });
      if ('ignore' in verdict) report.tmp_ignored.push(id);
      else if ('keep' in verdict) report.tmp_kept.push(id);
      else await this.deleteTmp(target, id, verdict.delete, report);
    }
  }

  private async deleteTmp(target: TargetKind, id: string, reason: TmpDeletionReason, report: SweepReport) {
    try {
      await this.pipelines.delete(target, id);
      report.tmp_deleted.push({ id, reason });
      countTmpSwept(reason);
      await this.redis.hdel(this.keys.janitorFirstSeen(), id);
    } catch (err) {
      report.errors.push(`deleting ${id}: ${errorMessage(err)}`);
    }
  }

  /** Records when each listed id was first seen; forgets ids the Manager no longer lists. */
  private async firstSeen(ids: string[]): Promise<Map<string, number>> {
    const key = this.keys.janitorFirstSeen();
    const now = String(Date.now());
    if (ids.length) {
      const multi = this.redis.multi();
      for (const id of ids) multi.hsetnx(key, id, now);
      await multi.exec();
    }
    const all = await this.redis.hgetall(key);
    const listed = new Set(ids);
    const gone = Object.keys(all).filter((id) => !listed.has(id));
    if (gone.length) await this.redis.hdel(key, ...gone);
    return new Map(ids.map((id) => [id, Number(all[id] ?? now)]));
  }
}

export async function readStats(redis: Redis, keys: RedisKeys): Promise<Record<(typeof STAT_FIELDS)[number], number>> {
  const raw = await redis.hgetall(keys.janitorStats());
  return Object.fromEntries(STAT_FIELDS.map((f) => [f, Number(raw[f] ?? 0)])) as Record<
    (typeof STAT_FIELDS)[number],
    number
  >;
}
