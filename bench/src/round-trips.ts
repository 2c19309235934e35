import type { Redis } from 'ioredis';
import { round } from './stats';

/** Redis traffic of a measured run, per node run (or per hop for the floor). */
export interface RoundTrips {
  /** Node runs (hops) the run made. */
  units: number;
  /** Client requests: a MULTI…EXEC block counts once, a script once, any other command once. */
  round_trips_per_unit: number;
  /** Commands run inside scripts (Lua `redis.call`). */
  script_commands_per_unit: number;
  /** Round trips by what they were, per unit, most frequent first. */
  by_command: { command: string; per_unit: number }[];
}

/**
 * Counts what reaches Redis while `run` runs, with `MONITOR` (so it is never part of a timed
 * series: a monitored Redis is slower). Everything on this Redis counts: the services, BullMQ's
 * housekeeping, the gateway's blocking reads. A pipeline of separate commands would count as
 * several here although it costs one network round trip: the one the product sends, an event's
 * XADD and EXPIRE, is counted once.
 */
export async function countRoundTrips(redis: Redis, run: () => Promise<number>): Promise<RoundTrips> {
  const monitor = await redis.monitor();
  // Per connection in a MULTI: whether its first command (which names the block) was seen.
  const inMulti = new Map<string, boolean>();
  const counts = new Map<string, number>();
  let trips = 0;
  // The last command of each connection, to fold an event's EXPIRE into its XADD (EventLog sends
  // the two together, one write on its auto-pipelining connection).
  const last = new Map<string, string>();
  let scripted = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const command = (args[0] ?? '').toUpperCase();
    if (source === 'lua') {
      scripted += 1;
      return;
    }
    if (command === 'MONITOR') return;
    if (inMulti.has(source)) {
      if (command === 'EXEC' || command === 'DISCARD') inMulti.delete(source);
      else if (!inMulti.get(source)) {
        inMulti.set(source, true);
        const name = `MULTI ${command} … EXEC`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return;
    }
    const key = args[1] ?? '';
    const previous = last.get(source);
    last.set(source, `${command} ${key}`);
    if (command === 'EXPIRE' && previous === `XADD ${key}`) {
      counts.set('XADD', (counts.get('XADD') ?? 1) - 1);
      counts.set('XADD + EXPIRE (one write)', (counts.get('XADD + EXPIRE (one write)') ?? 0) + 1);
      return;
    }
    let name = command;
    if (command === 'MULTI') {
      // Counted once its first command names it.
      inMulti.set(source, false);
      trips += 1;
      return;
    } else if (command === 'EVALSHA' || command === 'EVAL') {
      // Scripts: BullMQ's (add, move to active/finished, …) and the checkpoint's.
      name = `${command} (script)`;
    }
    counts.set(name, (counts.get(name) ?? 0) + 1);
    trips += 1;
  });
  let units = 0;
  try {
    units = await run();
    // MONITOR delivers asynchronously: let the tail arrive.
    await new Promise((r) => setTimeout(r, 200));
  } finally {
    monitor.disconnect();
  }
  const per = (n: number) => round(n / Math.max(1, units), 1);
  return {
    units,
    round_trips_per_unit: per(trips),
    script_commands_per_unit: per(scripted),
    by_command: [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([command, n]) => ({ command, per_unit: per(n) }))
      .filter((c) => c.per_unit >= 0.05),
  };
}
