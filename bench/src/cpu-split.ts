import { readFileSync } from 'node:fs';
import { round } from './stats';

const TICKS_PER_S = 100; // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in ms; null when it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) / TICKS_PER_S) * 1000;
  } catch {
    return null;
  }
}

/** CPU ms per unit of work (a turn, a floor chain) by process, and their sum. */
export interface CpuSplit {
  units: number;
  wall_s: number;
  /** ms of CPU per unit, by process name ("load generator" is this process: fakes and client). */
  per_unit_ms: Record<string, number>;
  total_per_unit_ms: number;
}

/**
 * Runs `work` (which completes `units` turns or chains) and charges each named process the CPU it
 * used meanwhile, per unit: what one turn costs the machine, process by process. On a machine
 * whose cores are all busy, throughput is bounded by cores ÷ this total.
 */
export async function cpuSplit(processes: Record<string, number[]>, work: () => Promise<number>): Promise<CpuSplit> {
  const read = () =>
    Object.fromEntries(
      Object.entries(processes).map(([name, pids]) => [name, pids.reduce((s, pid) => s + (processCpuMs(pid) ?? 0), 0)]),
    );
  const self = process.cpuUsage();
  const before = read();
  const started = performance.now();
  const units = await work();
  const wall_s = (performance.now() - started) / 1000;
  const after = read();
  const used = process.cpuUsage(self);
  const per_unit_ms: Record<string, number> = {};
  for (const name of Object.keys(processes)) per_unit_ms[name] = round((after[name] - before[name]) / units, 2);
  per_unit_ms['load generator'] = round((used.user + used.system) / 1000 / units, 2);
  const total = Object.values(per_unit_ms).reduce((s, v) => s + v, 0);
  return { units, wall_s: round(wall_s, 2), per_unit_ms, total_per_unit_ms: round(total, 2) };
}

/** Section 1c: CPU per happy-path turn by process, queued, floor and in-process side by side. */
export interface CpuPerTurn {
  sessions: number;
  turns_per_round: number;
  rounds: number;
  /** Median over the rounds, per process and in total. */
  queued: CpuSplit;
  floor: CpuSplit;
  in_process: CpuSplit;
}

/** Per process, the median of the rounds' figures (and the median of their totals). */
export function medianSplit(rounds: CpuSplit[]): CpuSplit {
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.floor(s.length / 2)] : NaN;
  };
  const names = [...new Set(rounds.flatMap((r) => Object.keys(r.per_unit_ms)))];
  return {
    units: rounds.reduce((s, r) => s + r.units, 0),
    wall_s: round(
      rounds.reduce((s, r) => s + r.wall_s, 0),
      2,
    ),
    per_unit_ms: Object.fromEntries(names.map((n) => [n, median(rounds.map((r) => r.per_unit_ms[n] ?? 0))])),
    total_per_unit_ms: median(rounds.map((r) => r.total_per_unit_ms)),
  };
}
