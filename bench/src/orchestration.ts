import type { Envelope } from '@nl2p/envelope';
import type { BenchClient } from './client';
import type { CpuMeter, CpuUse } from './cpu';
import type { InProcessGraph } from './in-process';
import { requestFor, type BenchPath } from './scripted';
import { round, summarize, type Summary } from './stats';

export type Mode = 'queued' | 'in_process';

/** One measured series: a path at a concurrency, run one way. */
export interface Series {
  mode: Mode;
  path: BenchPath;
  concurrency: number;
  turns: number;
  errors: number;
  /** Node runs per turn (each one a queue job when queued). */
  nodes_per_turn: number;
  wall_s: number;
  turns_per_s: number;
  latency_ms: Summary;
  cpu: CpuUse;
  first_error?: string;
}

/** Queued beside in-process for one path and concurrency. */
export interface Comparison {
  path: BenchPath;
  concurrency: number;
  queued: Series;
  in_process: Series;
  /** queued p50 / in-process p50 (and the same for p95, p99). */
  ratio_p50: number;
  ratio_p95: number;
  ratio_p99: number;
  /** (queued p50 − in-process p50) / node runs per turn. */
  overhead_per_hop_ms_p50: number;
  /** The same on the means. */
  overhead_per_hop_ms_mean: number;
}

export interface OrchestrationOptions {
  levels: number[];
  /** Turns each session runs, by concurrency (more sessions, fewer turns each). */
  turnsPerSession: (concurrency: number) => number;
  warmupTurns: number;
}

/** Runs `sessions` concurrent loops of `turns` turns each; returns latencies and failures. */
async function load(
  sessions: number,
  turns: number,
  open: () => Promise<(path: BenchPath) => Promise<{ ms: number; ok: boolean; detail: string; nodes: number }>>,
  path: BenchPath,
  meter?: CpuMeter,
): Promise<{ latencies: number[]; errors: string[]; wall_s: number; nodes: number; cpu: CpuUse | null }> {
  const latencies: number[] = [];
  const errors: string[] = [];
  let nodes = 0;
  meter?.begin();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async () => {
      const turn = await open();
      for (let i = 0; i < turns; i++) {
        try {
          const r = await turn(path);
          if (r.ok) latencies.push(r.ms);
          else errors.push(r.detail);
          nodes = Math.max(nodes, r.nodes);
        } catch (err) {
          errors.push(err instanceof Error ? err.message : String(err));
        }
      }
    }),
  );
  const wall_s = (performance.now() - started) / 1000;
  return { latencies, errors, wall_s, nodes, cpu: meter ? meter.end() : null };
}

/** Turns through the gateway, six services, BullMQ and Redis. */
function queuedSession(client: BenchClient) {
  return async () => {
    const sid = await client.createSession();
    return async (path: BenchPath) => {
      const { view, ms } = await client.turn(sid, { text: requestFor(path) });
      const ok = view.interrupt?.type === 'need_confirm';
      const failures = view.attempts?.failures?.length ?? 0;
      // The node count is not visible over HTTP; the in-process run of the same path reports it.
      return {
        ms,
        ok: ok && failures === (path === 'repair' ? 1 : 0),
        detail: `${view.status} ${view.interrupt?.type ?? ''} ${view.error?.message ?? ''} failures=${failures}`,
        nodes: 0,
      };
    };
  };
}

/** The same turns by direct function calls. */
function inProcessSession(graph: InProcessGraph) {
  return async () => {
    let envelope: Envelope = graph.newSession();
    return async (path: BenchPath) => {
      const started = performance.now();
      const out = await graph.turn(envelope, { text: requestFor(path) });
      const ms = performance.now() - started;
      envelope = out.envelope;
      const failures = envelope.validation.failures.length;
      return {
        ms,
        ok: envelope.interrupt?.type === 'need_confirm' && failures === (path === 'repair' ? 1 : 0),
        detail: `${envelope.status} ${envelope.interrupt?.type ?? ''} failures=${failures}`,
        nodes: out.nodes.length,
      };
    };
  };
}

function series(
  mode: Mode,
  path: BenchPath,
  concurrency: number,
  r: Awaited<ReturnType<typeof load>>,
  nodes: number,
): Series {
  const turns = r.latencies.length + r.errors.length;
  return {
    mode,
    path,
    concurrency,
    turns,
    errors: r.errors.length,
    nodes_per_turn: nodes,
    wall_s: round(r.wall_s, 2),
    turns_per_s: round(turns / r.wall_s, 1),
    latency_ms: summarize(r.latencies),
    cpu: r.cpu ?? { machine_busy_pct: NaN, bench_pct: NaN, others_pct: NaN },
    ...(r.errors.length ? { first_error: r.errors[0] } : {}),
  };
}

/**
 * Section 1: for each concurrency and path, the queued run and then the in-process run of the
 * same turns, back to back, so both see the same machine state.
 */
export async function orchestration(
  client: BenchClient,
  graph: InProcessGraph,
  meter: CpuMeter,
  opts: OrchestrationOptions,
  log: (line: string) => void,
): Promise<Comparison[]> {
  // Warm-up (JIT, connection pools, the catalog cache), not measured.
  for (const path of ['happy', 'repair'] as const) {
    await load(1, opts.warmupTurns, queuedSession(client), path);
    await load(1, opts.warmupTurns, inProcessSession(graph), path);
  }
  const out: Comparison[] = [];
  for (const concurrency of opts.levels) {
    for (const path of ['happy', 'repair'] as const) {
      const turns = opts.turnsPerSession(concurrency);
      const inproc = await load(concurrency, turns, inProcessSession(graph), path, meter);
      const queued = await load(concurrency, turns, queuedSession(client), path, meter);
      const nodes = inproc.nodes;
      const q = series('queued', path, concurrency, queued, nodes);
      const i = series('in_process', path, concurrency, inproc, nodes);
      out.push({
        path,
        concurrency,
        queued: q,
        in_process: i,
        ratio_p50: round(q.latency_ms.p50 / i.latency_ms.p50, 1),
        ratio_p95: round(q.latency_ms.p95 / i.latency_ms.p95, 1),
        ratio_p99: round(q.latency_ms.p99 / i.latency_ms.p99, 1),
        overhead_per_hop_ms_p50: round((q.latency_ms.p50 - i.latency_ms.p50) / nodes, 2),
        overhead_per_hop_ms_mean: round((q.latency_ms.mean - i.latency_ms.mean) / nodes, 2),
      });
      log(
        `orchestration ${path} x${concurrency}: queued p50 ${q.latency_ms.p50.toFixed(1)} ms (${q.turns} turns, ${q.errors} errors), ` +
          `in-process p50 ${i.latency_ms.p50.toFixed(1)} ms (${i.errors} errors)`,
      );
    }
  }
  return out;
}
