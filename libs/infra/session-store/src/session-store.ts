import type { ChainableCommander, Redis } from 'ioredis';
import { parseEnvelope, type Envelope, type SessionEvent } from '@nl2p/envelope';
import type { RedisKeys } from './keys';
import type { NodeTraceRecord } from './trace-log';

/**
 * Where sessions are checkpointed. Behind an interface so another store can be plugged in
 * (ARCHITECTURE §5); Redis is the one shipped.
 */
export interface SessionStore {
  /** Stores a brand-new session; false when the id is taken. */
  create(envelope: Envelope): Promise<boolean>;
  get(sessionId: string): Promise<Envelope | null>;
  /** Just the checkpoint's version (cheap enough to poll while a node runs); null when absent. */
  version(sessionId: string): Promise<number | null>;
  /**
   * Replaces the checkpoint only if it is still at `expectedVersion`; the stored envelope gets
   * version `expectedVersion + 1`, which is returned. `null` when someone else moved first.
   * `events` are appended to the session's event stream in the same atomic step (e.g. the
   * interrupt or error and `turn_end` of a checkpoint that stops the turn), so a process dying
   * right after the checkpoint cannot leave the client without them. Events holding a `turn_end`
   * are appended once per turn: when that turn's end is already in the stream, none are. A
   * `turn_end` comes last; it is also added to the deployment's turn-end stream, which turns
   * waiting for their answer follow.
   */
  compareAndSet(
    expectedVersion: number,
    next: Envelope,
    events?: SessionEvent[],
    also?: CheckpointExtras,
  ): Promise<Envelope | null>;
  /** Deletes the session with its events, trace and index entries (a missing one is fine). */
  delete(sessionId: string): Promise<void>;
  /**
   * A tenant's live sessions, newest first, `limit` at a time; `cursor` continues after the last
   * page (null when there is no more). Sessions that expired meanwhile are skipped and forgotten.
   */
  listForTenant(tenant: string, limit: number, cursor?: string | null): Promise<TenantSessionPage>;
  /**
   * Sessions whose turn is running and whose last checkpoint is older than `olderThanMs`
   * (0: all of them), oldest first; maintained by {@link compareAndSet} for the janitor.
   */
  listRunning(olderThanMs: number, limit?: number): Promise<{ sessionId: string; checkpointAt: number }[]>;
  /** Drops sessions from the running index (e.g. the session expired while its turn ran). */
  forgetRunning(sessionIds: string[]): Promise<void>;
}

export interface TenantSessionPage {
  sessions: Envelope[];
  /** Pass back to get the next page; null on the last one. */
  next_cursor: string | null;
}

/** A tenant index member: creation time first so members sort by it, then the id. */
function indexMember(envelope: Envelope): string {
  const created = Date.parse(envelope.created_at);
  return `${String(Number.isFinite(created) ? created : 0).padStart(16, '0')}:${envelope.session_id}`;
}

/** What a tenant index member or a page cursor looks like; anything else is refused before Redis. */
export const SESSION_CURSOR_PATTERN = /^\d{16}:[0-9a-f]{32}$/;

/**
 * What a node run records beside its checkpoint, in the same atomic step (one round trip instead
 * of three): its `node_end` event (appended before `events`, whatever the turn-end marker says)
 * and its trace record. Nothing of it is written when the compare-and-set loses.
 */
export interface CheckpointExtras {
  events?: SessionEvent[];
  trace?: NodeTraceRecord;
}

/**
 * Entries the deployment's turn-end stream keeps (about; trimmed by whole stream nodes): a waiting
 * turn reads its end within moments, so this only has to outlast a burst of turn ends.
 */
export const TURN_ENDS_KEPT = 1_000;

// Checks the version and writes in one step, so two writers can never both win. The same step
// keeps the running index (KEYS[4]) in line with the status, and gives the session's events,
// trace and turn-end marker (KEYS[2], KEYS[3], KEYS[5]) the session's TTL, so they all expire
// together when it goes idle. A turn's end (the last of the events, see prepareCompareAndSet) is
// also added to the deployment's turn-end stream (KEYS[6]), which turns waiting for their answer
// follow.
const CAS_SCRIPT = `
local cur = redis.call('HGET', KEYS[1], 'version')
if not cur or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'envelope', ARGV[3])
if ARGV[11] ~= '' then
  redis.call('RPUSH', KEYS[3], ARGV[11])
  redis.call('LTRIM', KEYS[3], -tonumber(ARGV[12]), -1)
end
local first = 14 + tonumber(ARGV[13])
for i = 14, first - 1 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'e', ARGV[i])
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
if ARGV[5] == 'running' then
  redis.call('ZADD', KEYS[4], ARGV[6], ARGV[7])
else
  redis.call('ZREM', KEYS[4], ARGV[7])
end
if #ARGV >= first then
  local append = true
  if ARGV[10] == '1' then
    append = tonumber(redis.call('GET', KEYS[5]) or '-1') < tonumber(ARGV[9])
    if append then redis.call('SET', KEYS[5], ARGV[9], 'EX', ARGV[4]) end
  end
  if append then
    for i = first, #ARGV do
      redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'e', ARGV[i])
    end
    redis.call('EXPIRE', KEYS[2], ARGV[4])
    if ARGV[10] == '1' then
      redis.call('XADD', KEYS[6], 'MAXLEN', '~', '${TURN_ENDS_KEPT}', '*', 's', ARGV[7], 'e', ARGV[#ARGV])
    end
  end
end
return 1
`;

const CAS_COMMAND = 'nl2pCompareAndSet';
type CasCommand = Record<typeof CAS_COMMAND, (...keysThenArgs: string[]) => Promise<number>>;

/** A compare-and-set ready to run: the envelope it stores, and the script's keys and arguments. */
export interface PreparedCheckpoint {
  stored: Envelope;
  command: string[];
}

/**
 * A MULTI on `connection` (any connection to the sessions' Redis, e.g. a BullMQ queue's) that
 * starts with `prepared`; queue more on it and exec it. The compare-and-set's reply, first in the
 * results, is 1 when it won.
 */
export function multiWithCompareAndSet(connection: Redis, prepared: PreparedCheckpoint): ChainableCommander {
  // Before the MULTI is made: a MULTI knows the scripts its connection had when it was made.
  defineCompareAndSet(connection);
  const multi = connection.multi();
  (multi as unknown as Record<typeof CAS_COMMAND, (...keysThenArgs: string[]) => unknown>)[CAS_COMMAND](
    ...prepared.command,
  );
  return multi;
}

function defineCompareAndSet(redis: Redis): void {
  // Sent by its digest (EVALSHA, loaded on first use): the script's text is not written to
  // the socket on every checkpoint.
  if (!(CAS_COMMAND in redis)) redis.defineCommand(CAS_COMMAND, { numberOfKeys: 6, lua: CAS_SCRIPT });
}

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly ttlSeconds: number,
    /** Bound of the event stream (as {@link EventLog} keeps it), for `endEvents`. */
    private readonly eventsMaxLen = 2_000,
    /** Bound of the trace log (as {@link TraceLog} keeps it), for {@link CheckpointExtras}. */
    private readonly traceMaxRecords = 2_000,
  ) {
    defineCompareAndSet(redis);
  }

  async create(envelope: Envelope): Promise<boolean> {
    const key = this.keys.session(envelope.session_id);
    const created = await this.redis.hsetnx(key, 'version', String(envelope.version));
    if (!created) return false;
    await this.redis
      .multi()
      .hset(key, 'envelope', JSON.stringify(envelope))
      .expire(key, this.ttlSeconds)
      .zadd(this.keys.tenantSessions(envelope.tenant), 0, indexMember(envelope))
      .exec();
    return true;
  }

  async get(sessionId: string): Promise<Envelope | null> {
    const raw = await this.redis.hget(this.keys.session(sessionId), 'envelope');
    return raw ? parseEnvelope(JSON.parse(raw)) : null;
  }

  async version(sessionId: string): Promise<number | null> {
    const raw = await this.redis.hget(this.keys.session(sessionId), 'version');
    return raw === null ? null : Number(raw);
  }

  async compareAndSet(
    expectedVersion: number,
    next: Envelope,
    events: SessionEvent[] = [],
    also: CheckpointExtras = {},
  ): Promise<Envelope | null> {
    const prepared = this.prepareCompareAndSet(expectedVersion, next, events, also);
    const ok = await (this.redis as unknown as CasCommand)[CAS_COMMAND](...prepared.command);
    return ok === 1 ? prepared.stored : null;
  }

  /**
   * The same compare-and-set, to be queued on another connection's MULTI (see
   * {@link queueCompareAndSet}), e.g. beside the job of the node it hands the turn to, so the
   * checkpoint and the dispatch happen together or not at all, in one round trip.
   */
  prepareCompareAndSet(
    expectedVersion: number,
    next: Envelope,
    events: SessionEvent[] = [],
    also: CheckpointExtras = {},
  ): PreparedCheckpoint {
    const endAt = events.findIndex((e) => e.type === 'turn_end');
    // The script adds the last event to the turn-end stream: a turn's end comes last.
    if (endAt >= 0 && endAt !== events.length - 1) throw new Error('turn_end must be the last event of a checkpoint');
    const now = new Date();
    const stored: Envelope = { ...next, version: expectedVersion + 1, updated_at: now.toISOString() };
    const id = next.session_id;
    const command = [
      this.keys.session(id),
      this.keys.events(id),
      this.keys.trace(id),
      this.keys.running(),
      this.keys.turnEnded(id),
      this.keys.turnEnds(),
      String(expectedVersion),
      String(stored.version),
      JSON.stringify(stored),
      String(this.ttlSeconds),
      stored.status,
      String(now.getTime()),
      id,
      String(this.eventsMaxLen),
      String(next.turn_id),
      endAt >= 0 ? '1' : '0',
      also.trace ? JSON.stringify(also.trace) : '',
      String(this.traceMaxRecords),
      String(also.events?.length ?? 0),
      ...(also.events ?? []).map((e) => JSON.stringify(e)),
      ...events.map((e) => JSON.stringify(e)),
    ];
    return { stored, command };
  }

  async delete(sessionId: string): Promise<void> {
    const envelope = await this.get(sessionId);
    const tx = this.redis.multi();
    if (envelope) tx.zrem(this.keys.tenantSessions(envelope.tenant), indexMember(envelope));
    await tx
      .del(
        this.keys.session(sessionId),
        this.keys.events(sessionId),
        this.keys.trace(sessionId),
        this.keys.turnEnded(sessionId),
      )
      .zrem(this.keys.running(), sessionId)
      .exec();
  }

  async listForTenant(tenant: string, limit: number, cursor?: string | null): Promise<TenantSessionPage> {
    const key = this.keys.tenantSessions(tenant);
    const sessions: Envelope[] = [];
    let after = cursor ? `(${cursor}` : '+';
    // Expired sessions leave their index entry behind; they are dropped here, so a page may take
    // a few reads, but it is always full unless the index has run out.
    for (;;) {
      const want = limit - sessions.length;
      const members = await this.redis.zrevrangebylex(key, after, '-', 'LIMIT', 0, want + 1);
      const page = members.slice(0, want);
      const found = await Promise.all(page.map((m) => this.get(m.slice(m.indexOf(':') + 1))));
      const gone = page.filter((_, i) => !found[i]);
      if (gone.length) await this.redis.zrem(key, ...gone);
      for (const e of found) if (e && e.tenant === tenant) sessions.push(e);
      const last = page.at(-1);
      if (members.length <= want || !last) return { sessions, next_cursor: null };
      if (sessions.length >= limit) return { sessions, next_cursor: last };
      after = `(${last}`;
    }
  }

  async listRunning(olderThanMs: number, limit = 500): Promise<{ sessionId: string; checkpointAt: number }[]> {
    const max = olderThanMs > 0 ? String(Date.now() - olderThanMs) : '+inf';
    const rows = await this.redis.zrangebyscore(this.keys.running(), '-inf', max, 'WITHSCORES', 'LIMIT', 0, limit);
    const out: { sessionId: string; checkpointAt: number }[] = [];
    for (let i = 0; i + 1 < rows.length; i += 2) out.push({ sessionId: rows[i], checkpointAt: Number(rows[i + 1]) });
    return out;
  }

  async forgetRunning(sessionIds: string[]): Promise<void> {
    if (sessionIds.length) await this.redis.zrem(this.keys.running(), ...sessionIds);
  }
}
