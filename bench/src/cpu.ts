import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { round } from './stats';

/**
 * CPU accounting over a measured interval, from /proc: how busy the whole machine was, and how much
 * of that was the bench's own processes (services, Redis, this process with the fakes and load
 * generator) versus anything else running on the machine at the same time.
 */
export interface CpuUse {
  /** Busy share of all cores, 0..100. */
  machine_busy_pct: number;
  /** Share of all cores used by the bench's processes. */
  bench_pct: number;
  /** Share of all cores used by other processes on the machine. */
  others_pct: number;
}

interface Snapshot {
  at: number;
  busy: number;
  total: number;
  pids: Map<number, number>;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...fields] = line.trim().split(/\s+/);
  const n = fields.map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const total = n.slice(0, 8).reduce((s, x) => s + x, 0);
  return { busy: total - idle, total };
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

export class CpuMeter {
  private start: Snapshot | null = null;

  constructor(private readonly pids: () => number[]) {}

  begin(): void {
    this.start = this.snapshot();
  }

  end(): CpuUse {
    const a = this.start;
    if (!a) throw new Error('CpuMeter.end() without begin()');
    const b = this.snapshot();
    const total = b.total - a.total;
    const busy = b.busy - a.busy;
    let bench = 0;
    for (const [pid, ticks] of b.pids) bench += ticks - (a.pids.get(pid) ?? ticks);
    // Process ticks are per process; machine ticks are summed over cores.
    const cores = os.availableParallelism();
    const seconds = (b.at - a.at) / 1000;
    const benchPct = seconds > 0 ? (bench / TICKS_PER_S / seconds / cores) * 100 : NaN;
    const busyPct = total > 0 ? (busy / total) * 100 : NaN;
    return {
      machine_busy_pct: round(busyPct, 0),
      bench_pct: round(Math.min(benchPct, busyPct), 0),
      others_pct: round(Math.max(0, busyPct - benchPct), 0),
    };
  }

  private snapshot(): Snapshot {
    const pids = new Map<number, number>();
    for (const pid of new Set([process.pid, ...this.pids()])) pids.set(pid, processTicks(pid));
    return { at: performance.now(), ...machineTicks(), pids };
  }
}

/** The pid of the Redis server on `port` (for CPU accounting), if it runs on this machine. */
export function redisPid(port: number): number | null {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.startsWith('redis-server') && (cmd.includes(`:${port}`) || cmd.includes(`--port ${port}`)))
        return Number(entry);
    }
  } catch {
    // no /proc access: Redis is accounted as "others"
  }
  return null;
}
