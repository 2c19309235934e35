import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { EventHub, compareStreamIds } from './event-hub';
import { EventLog, type StoredEvent } from './event-log';
import { RedisKeys } from './keys';
import { RedisSessionStore } from './session-store';
import { newSessionEnvelope, type Envelope, type SessionEvent } from '@nl2p/envelope';

const REDIS_URL = process.env.REDIS_URL ?? '';

function nodeStart(turn: number, node: string): SessionEvent {
  return { type: 'node_start', turn_id: turn, node, attempt: 1, at: new Date().toISOString() } as SessionEvent;
}

/** Collects one subscriber's events; resolves `until(n)` once it holds n of them. */
class Collector {
  readonly events: StoredEvent[] = [];
  readonly errors: unknown[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];
  onEvents = (batch: StoredEvent[]) => {
    this.events.push(...batch);
    this.waiters = this.waiters.filter((w) => (this.events.length >= w.n ? (w.resolve(), false) : true));
  };
  onError = (err: unknown) => this.errors.push(err);
  until(n: number): Promise<void> {
    if (this.events.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

async function connectedClients(redis: Redis): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.trim().split('\n').length;
}

describe('EventHub (real Redis)', () => {
  let redis: Redis;
  let keys: RedisKeys;
  let log: EventLog;
  let hub: EventHub;

  beforeEach(() => {
    redis = new Redis(REDIS_URL);
    keys = new RedisKeys(`hub${randomUUID().slice(0, 8)}`);
    log = new EventLog(redis, keys, 1_000, 600);
    // Reads block a whole minute: anything that arrives promptly was woken, not polled.
    hub = new EventHub(redis, keys, { blockMs: 60_000 });
  });

  afterEach(async () => {
    await hub.close();
    const left = await redis.keys(`${keys.prefix}:*`);
    if (left.length) await redis.del(...left);
    redis.disconnect();
  });

  it('serves many followers of many sessions on one blocking connection, each its own events in order', async () => {
    await redis.ping();
    const before = await connectedClients(redis);
    const sessions = Array.from({ length: 10 }, () => randomUUID());
    const followers = sessions.flatMap((s) => Array.from({ length: 5 }, () => ({ session: s, c: new Collector() })));
    for (const f of followers) hub.subscribe(f.session, '0-0', f.c);

    for (let i = 0; i < 4; i++) {
      for (const s of sessions) await log.append(s, nodeStart(1, `${s}#${i}`));
    }
    await Promise.all(followers.map((f) => f.c.until(4)));

    // 50 followers: the hub's one connection is all they added (a connection each would be +50).
    expect((await connectedClients(redis)) - before).toBeLessThanOrEqual(1);
    expect(hub.connections).toBe(1);
    for (const f of followers) {
      expect(f.c.events.map((e) => (e.event as { node: string }).node)).toEqual(
        [0, 1, 2, 3].map((i) => `${f.session}#${i}`),
      );
      expect(f.c.errors).toEqual([]);
    }
  });

  it('wakes a read that is already blocked when a new follower arrives, and replays from its cursor', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const first = new Collector();
    hub.subscribe(a, '0-0', first);
    await log.append(a, nodeStart(1, 'a0'));
    await first.until(1); // the hub is now blocked on `a` alone, for up to a minute

    const id0 = await log.append(b, nodeStart(1, 'b0'));
    await log.append(b, nodeStart(1, 'b1'));
    const late = new Collector();
    hub.subscribe(b, id0, late); // resume after b0
    await late.until(1);
    expect(late.events.map((e) => (e.event as { node: string }).node)).toEqual(['b1']);
  });

  it('gives two followers of one session at different cursors exactly what each is missing', async () => {
    const s = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await log.append(s, nodeStart(1, `n${i}`)));
    const fromStart = new Collector();
    const fromSecond = new Collector();
    hub.subscribe(s, '0-0', fromStart);
    hub.subscribe(s, ids[1], fromSecond);
    await log.append(s, nodeStart(1, 'n3'));
    await Promise.all([fromStart.until(4), fromSecond.until(2)]);
    expect(fromStart.events.map((e) => e.id)).toEqual([...ids, expect.any(String)]);
    expect(fromSecond.events.map((e) => (e.event as { node: string }).node)).toEqual(['n2', 'n3']);
  });

  it('stops delivering to a closed subscription', async () => {
    const s = randomUUID();
    const gone = new Collector();
    const kept = new Collector();
    const sub = hub.subscribe(s, '0-0', gone);
    hub.subscribe(s, '0-0', kept);
    await log.append(s, nodeStart(1, 'one'));
    await Promise.all([gone.until(1), kept.until(1)]);
    sub.close();
    await log.append(s, nodeStart(1, 'two'));
    await kept.until(2);
    expect(gone.events).toHaveLength(1);
    expect(hub.size).toBe(1);
  });

  it("a turn's end reaches its session's waiters on the deployment's turn-end stream, and only that", async () => {
    const store = new RedisSessionStore(redis, keys, 600);
    const sessions = await Promise.all(
      ['a', 'b'].map(async () => {
        const e = newSessionEnvelope({
          sessionId: randomUUID().replaceAll('-', ''),
          target: 'duckdb',
          maxAttempts: 3,
          sink: { type: 'nop', props: {} },
        });
        expect(await store.create(e)).toBe(true);
        const running: Envelope = { ...e, turn_id: 1, status: 'running', node: 'init_session' };
        const saved = await store.compareAndSet(0, running, [{ type: 'turn_start', turn_id: 1 }]);
        if (!saved) throw new Error('turn did not start');
        return saved;
      }),
    );
    const [a, b] = sessions;
    const from = await log.lastTurnEndId();
    const waitsA = new Collector();
    const waitsB = new Collector();
    hub.subscribeTurnEnds(a.session_id, from, waitsA);
    hub.subscribeTurnEnds(b.session_id, from, waitsB);
    // Node events of the session do not wake its waiter; only the checkpoint that ends the turn.
    await log.append(a.session_id, nodeStart(1, 'init_session'));
    const ended: Envelope = {
      ...a,
      status: 'waiting',
      interrupt: { type: 'need_confirm', question: 'ok?', choices: null },
    };
    const end: SessionEvent[] = [
      { type: 'interrupt', turn_id: 1, interrupt: ended.interrupt } as SessionEvent,
      { type: 'turn_end', turn_id: 1, status: 'waiting' },
    ];
    expect(await store.compareAndSet(a.version, ended, end)).not.toBeNull();
    await waitsA.until(1);
    expect(waitsA.events.map((e) => e.event)).toEqual([{ type: 'turn_end', turn_id: 1, status: 'waiting' }]);
    // The other session's waiter heard nothing, and its own end still reaches it.
    expect(waitsB.events).toEqual([]);
    expect(
      await store.compareAndSet(b.version, { ...b, status: 'idle' }, [
        { type: 'turn_end', turn_id: 1, status: 'idle' },
      ]),
    ).not.toBeNull();
    await waitsB.until(1);
    expect(waitsB.events.map((e) => e.event)).toEqual([{ type: 'turn_end', turn_id: 1, status: 'idle' }]);
    expect(waitsA.events).toHaveLength(1);
    // A turn's end must be the last event of its checkpoint (the script forwards the last one).
    expect(() =>
      store.prepareCompareAndSet(1, a, [
        { type: 'turn_end', turn_id: 1, status: 'idle' },
        { type: 'turn_start', turn_id: 2 },
      ]),
    ).toThrow(/last event/);
  });

  it('compares stream ids as numbers', () => {
    expect(compareStreamIds('9-0', '10-0')).toBeLessThan(0);
    expect(compareStreamIds('10-2', '10-10')).toBeLessThan(0);
    expect(compareStreamIds('10-1', '10-1')).toBe(0);
  });
});
