import { type BenchClient, newSession, timedTurn } from './client';
import type { CpuMeter, CpuUse } from './cpu';
import { requestFor } from './scripted';
import { round, summarize, type Summary } from './stats';

export interface ScalingConfig {
  processes: number;
  concurrency: number;
}

export interface ScalingPoint extends ScalingConfig {
  /** Concurrent client sessions (closed loop: each posts its next turn when the last one ends). */
  sessions: number;
  window_s: number;
  completed: number;
  errors: number;
  turns_per_s: number;
  /** processes × concurrency / draft latency: every drafter slot busy with nothing but the LLM call. */
  ideal_turns_per_s: number;
  /** turns_per_s / ideal. */
  efficiency_vs_ideal: number;
  /** turns_per_s / turns_per_s of 1 process at concurrency 1. */
  speedup_vs_single_slot: number;
  latency_ms: Summary;
  /** CPU during the window. */
  cpu: CpuUse;
}

/**
 * Closed-loop load for `warmupMs + windowMs`: counts the turns that complete inside the window.
 * No new turn starts after the window; the ones in flight are awaited (not counted).
 */
export async function closedLoop(
  client: BenchClient,
  sessions: number,
  warmupMs: number,
  windowMs: number,
  meter: CpuMeter,
): Promise<{ completed: number; errors: number; latencies: number[]; cpu: CpuUse }> {
  const start = performance.now() + warmupMs;
  const end = start + windowMs;
  const measured: { cpu: CpuUse | null } = { cpu: null };
  const begin = setTimeout(() => meter.begin(), warmupMs);
  const finish = setTimeout(() => (measured.cpu = meter.end()), warmupMs + windowMs);
  let completed = 0;
  let errors = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const sid = await newSession(client);
      while (performance.now() < end) {
        try {
          const { view, ms } = await timedTurn(client, sid, { text: requestFor('happy') });
          const done = performance.now();
          if (done < start || done >= end) continue;
          if (view.interrupt?.type === 'need_confirm') {
            completed += 1;
            latencies.push(ms);
          } else {
            errors += 1;
          }
        } catch {
          errors += 1;
        }
      }
    }),
  );
  clearTimeout(begin);
  clearTimeout(finish);
  return {
    completed,
    errors,
    latencies,
    cpu: measured.cpu ?? { machine_busy_pct: NaN, bench_pct: NaN, others_pct: NaN },
  };
}

export function scalingPoint(
  cfg: ScalingConfig,
  sessions: number,
  windowMs: number,
  draftLatencyMs: number,
  r: { completed: number; errors: number; latencies: number[]; cpu: CpuUse },
  singleSlotRate: number | null,
): ScalingPoint {
  const rate = r.completed / (windowMs / 1000);
  const ideal = (cfg.processes * cfg.concurrency * 1000) / draftLatencyMs;
  return {
    ...cfg,
    sessions,
    window_s: windowMs / 1000,
    completed: r.completed,
    errors: r.errors,
    turns_per_s: round(rate, 2),
    ideal_turns_per_s: round(ideal, 2),
    efficiency_vs_ideal: round(rate / ideal, 3),
    speedup_vs_single_slot: singleSlotRate ? round(rate / singleSlotRate, 2) : 1,
    latency_ms: summarize(r.latencies),
    cpu: r.cpu,
  };
}
