import type { Envelope } from '@nl2p/envelope';
import { GRAPH } from '@nl2p/graph';
import { type BenchClient, newSession, timedTurn } from './client';
import type { CpuMeter, CpuUse } from './cpu';
import type { BullFloor } from './floor';
import type { InProcessGraph } from './in-process';
import { requestFor, type BenchPath } from './scripted';
import { round, summarize, type Summary } from './stats';

export type Mode = 'queued' | 'in_process' | 'floor';

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

/** Queued beside in-process and the BullMQ floor for one path and concurrency. */
export interface Comparison {
  path: BenchPath;
  concurrency: number;
  queued: Series;
  in_process: Series;
  /** A raw BullMQ chain with as many hops as node runs, carrying the envelope's bytes. */
  floor: Series;
  /** queued p50 / floor p50 (and p95). */
  floor_ratio_p50: number;
  floor_ratio_p95: number;
  /** queued turns/s ÷ floor chains/s. */
  floor_throughput_share: number;
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

/** Rounds each series is split into, alternating with the other two ways of running it. */
const ROUNDS = 4;

type Loaded = Awaited<ReturnType<typeof load>>;

/** One series from its rounds: samples pooled, wall time summed, CPU weighted by wall time. */
function merge(parts: Loaded[]): Loaded {
  const wall_s = parts.reduce((s, p) => s + p.wall_s, 0);
  const weighted = (pick: (c: CpuUse) => number) =>
    round(parts.reduce((s, p) => s + (p.cpu ? pick(p.cpu) * p.wall_s : NaN), 0) / wall_s, 0);
  return {
    latencies: parts.flatMap((p) => p.latencies),
    errors: parts.flatMap((p) => p.errors),
    wall_s,
    nodes: Math.max(...parts.map((p) => p.nodes)),
    cpu: {
      machine_busy_pct: weighted((c) => c.machine_busy_pct),
      bench_pct: weighted((c) => c.bench_pct),
      others_pct: weighted((c) => c.others_pct),
    },
  };
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
    const sid = await newSession(client);
    return async (path: BenchPath) => {
      const { view, ms } = await timedTurn(client, sid, { text: requestFor(path) });
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

/** The same number of hops as raw BullMQ jobs, carrying the envelope. */
function floorSession(floor: BullFloor, routes: Record<BenchPath, FloorRoute>) {
  return async () => async (path: BenchPath) => {
    const { queues, payload } = routes[path];
    const ms = await floor.chain(queues, payload);
    return { ms, ok: true, detail: '', nodes: queues.length };
  };
}

/** The queues a path's node runs go through, and the envelope a turn of it ends with. */
export interface FloorRoute {
  queues: string[];
  payload: Envelope;
  payload_bytes: number;
}

/** One in-process turn of each path tells the floor its route and payload. */
export async function floorRoutes(graph: InProcessGraph): Promise<Record<BenchPath, FloorRoute>> {
  const out = {} as Record<BenchPath, FloorRoute>;
  for (const path of ['happy', 'repair'] as const) {
    const { envelope, nodes } = await graph.turn(graph.newSession(), { text: requestFor(path) });
    out[path] = {
      queues: nodes.map((n) => GRAPH[n].queue),
      payload: envelope,
      payload_bytes: Buffer.byteLength(JSON.stringify(envelope)),
    };
  }
  return out;
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
  floor: BullFloor,
  routes: Record<BenchPath, FloorRoute>,
  meter: CpuMeter,
  opts: OrchestrationOptions,
  log: (line: string) => void,
): Promise<Comparison[]> {
  // Warm-up (JIT, connection pools, the catalog cache), not measured. Eight sessions at a time,
  // so every worker slot has run the code often enough for the optimizing compiler: with a
  // handful of turns the 1-session row measured half-compiled services against a hot floor.
  for (const path of ['happy', 'repair'] as const) {
    await load(8, opts.warmupTurns, queuedSession(client), path);
    await load(8, opts.warmupTurns, inProcessSession(graph), path);
    await load(8, opts.warmupTurns, floorSession(floor, routes), path);
  }
  const out: Comparison[] = [];
  for (const concurrency of opts.levels) {
    for (const path of ['happy', 'repair'] as const) {
      const turns = opts.turnsPerSession(concurrency);
      // The three ways take turns, a round each, so a change in what else runs on the machine
      // lands on all three alike and their ratios hold.
      const rounds = Math.min(ROUNDS, turns);
      const per = Math.ceil(turns / rounds);
      const parts: Record<'inproc' | 'queued' | 'bare', Loaded[]> = { inproc: [], queued: [], bare: [] };
      for (let r = 0; r < rounds; r++) {
        parts.inproc.push(await load(concurrency, per, inProcessSession(graph), path, meter));
        parts.queued.push(await load(concurrency, per, queuedSession(client), path, meter));
        parts.bare.push(await load(concurrency, per, floorSession(floor, routes), path, meter));
      }
      const [inproc, queued, bare] = [merge(parts.inproc), merge(parts.queued), merge(parts.bare)];
      const nodes = inproc.nodes;
      const q = series('queued', path, concurrency, queued, nodes);
      const i = series('in_process', path, concurrency, inproc, nodes);
      const f = series('floor', path, concurrency, bare, bare.nodes);
      out.push({
        path,
        concurrency,
        queued: q,
        in_process: i,
        floor: f,
        floor_ratio_p50: round(q.latency_ms.p50 / f.latency_ms.p50, 2),
        floor_ratio_p95: round(q.latency_ms.p95 / f.latency_ms.p95, 2),
        floor_throughput_share: round(q.turns_per_s / f.turns_per_s, 2),
        ratio_p50: round(q.latency_ms.p50 / i.latency_ms.p50, 1),
        ratio_p95: round(q.latency_ms.p95 / i.latency_ms.p95, 1),
        ratio_p99: round(q.latency_ms.p99 / i.latency_ms.p99, 1),
        overhead_per_hop_ms_p50: round((q.latency_ms.p50 - i.latency_ms.p50) / nodes, 2),
        overhead_per_hop_ms_mean: round((q.latency_ms.mean - i.latency_ms.mean) / nodes, 2),
      });
      log(
        `orchestration ${path} x${concurrency}: queued p50 ${q.latency_ms.p50.toFixed(1)} ms (${q.turns} turns, ${q.errors} errors), ` +
          `in-process p50 ${i.latency_ms.p50.toFixed(1)} ms (${i.errors} errors), floor p50 ${f.latency_ms.p50.toFixed(1)} ms`,
      );
    }
  }
  return out;
}
