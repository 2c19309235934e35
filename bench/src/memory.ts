import type { Redis } from 'ioredis';
import { type BenchClient, newSession, timedTurn } from './client';
import { requestFor } from './scripted';
import { round } from './stats';

/** Redis bytes a session holds, by what holds them (MEMORY USAGE, all samples). */
export interface SessionMemory {
  sessions: number;
  turns_per_session: number;
  /** Mean bytes per session. */
  checkpoint_bytes: number;
  events_bytes: number;
  trace_bytes: number;
  /** BullMQ jobs of the session still in Redis (finished ones are removed; failed ones kept a day). */
  retained_jobs: number;
  retained_jobs_bytes: number;
  total_bytes: number;
  /** Without the retained jobs: what stays for the session's TTL. */
  durable_bytes: number;
  /** INFO used_memory after − before, divided by the sessions: everything, allocator overhead included. */
  used_memory_delta_per_session: number;
  failed_turns: number;
}

/** The ten turns: request, feedback, confirm, three times, then a last request. */
const CONVERSATION: Record<string, unknown>[] = [
  { text: requestFor('happy') },
  { feedback: 'use 35 degrees instead' },
  { confirm: true },
  { text: requestFor('repair') },
  { feedback: 'only devices whose id starts with a' },
  { confirm: true },
  { text: 'max humidity per device every 10 seconds' },
  { feedback: 'every 20 seconds instead' },
  { confirm: true },
  { text: requestFor('happy') },
];

async function memoryUsage(redis: Redis, key: string): Promise<number> {
  const bytes = (await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) as number | null;
  return bytes ?? 0;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN);
}

async function scanAll(redis: Redis, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    out.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return out;
}

/** Section 4a: `sessions` sessions hold a 10-turn conversation each; then their keys are weighed. */
export async function sessionMemory(
  client: BenchClient,
  redis: Redis,
  prefix: string,
  sessions: number,
): Promise<SessionMemory> {
  const before = await usedMemory(redis);
  let failed = 0;
  const ids = await Promise.all(
    Array.from({ length: sessions }, async () => {
      const sid = await newSession(client);
      for (const input of CONVERSATION) {
        const { view } = await timedTurn(client, sid, input);
        const expected = input.confirm ? 'idle' : 'waiting';
        if (view.status !== expected) failed += 1;
      }
      return sid;
    }),
  );
  const after = await usedMemory(redis);
  const sum = { checkpoint: 0, events: 0, trace: 0, jobs: 0, jobBytes: 0 };
  for (const sid of ids) {
    sum.checkpoint += await memoryUsage(redis, `${prefix}:session:${sid}`);
    sum.events += await memoryUsage(redis, `${prefix}:session:${sid}:events`);
    sum.trace += await memoryUsage(redis, `${prefix}:session:${sid}:trace`);
    const jobs = await scanAll(redis, `${prefix}-bull:*:${sid}.*`);
    sum.jobs += jobs.length;
    for (const key of jobs) sum.jobBytes += await memoryUsage(redis, key);
  }
  const per = (x: number) => round(x / sessions, 0);
  const durable = per(sum.checkpoint + sum.events + sum.trace);
  return {
    sessions,
    turns_per_session: CONVERSATION.length,
    checkpoint_bytes: per(sum.checkpoint),
    events_bytes: per(sum.events),
    trace_bytes: per(sum.trace),
    retained_jobs: round(sum.jobs / sessions, 1),
    retained_jobs_bytes: per(sum.jobBytes),
    total_bytes: durable + per(sum.jobBytes),
    durable_bytes: durable,
    used_memory_delta_per_session: per(after - before),
    failed_turns: failed,
  };
}
