import { newSession, timedTurn } from './client';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@nl2p/config';
import { WORKFLOW_QUEUES } from '@nl2p/graph';
import { CpuMeter } from './cpu';
import { cpuSplit, medianSplit, type CpuPerTurn, type CpuSplit } from './cpu-split';
import { BullFloor } from './floor';
import { InProcessGraph } from './in-process';
import { machineFacts } from './machine';
import { sessionMemory } from './memory';
import { floorRoutes, orchestration, type FloorRoute } from './orchestration';
import { promptCost } from './prompt-cost';
import { renderMarkdown, type BenchReport } from './report';
import { countRoundTrips } from './round-trips';
import { turnTimeSplit } from './span-timings';
import { closedLoop, scalingPoint, type ScalingConfig, type ScalingPoint } from './scaling';
import { benchModel, requestFor, type BenchPath } from './scripted';
import { BenchStack } from './stack';

export interface BenchOptions {
  redisUrl: string;
  /** Where the JSON and Markdown reports go (created). */
  outDir: string;
  log: (line: string) => void;
  /** Shorter windows and fewer turns, for a quick check of the bench itself. */
  quick?: boolean;
}

const LEVELS = [1, 16, 64];
const LLM_LATENCY_MS = 300;
const SCALING: ScalingConfig[] = [
  { processes: 1, concurrency: 1 },
  { processes: 1, concurrency: 4 },
  { processes: 1, concurrency: 16 },
  { processes: 2, concurrency: 1 },
  { processes: 2, concurrency: 4 },
];

export async function runBench(
  opts: BenchOptions,
): Promise<{ report: BenchReport; markdown: string; json: string; md: string }> {
  const started = performance.now();
  const quick = opts.quick ?? false;
  const turnsPerSession = (c: number) => (quick ? 2 : c === 1 ? 60 : c <= 16 ? 8 : 4);
  const windowMs = quick ? 3_000 : 12_000;
  const warmupMs = quick ? 1_000 : 3_000;

  opts.log('prompt cost');
  const prompt = promptCost();

  const stack = new BenchStack(opts.redisUrl);
  let delay = 0;
  stack.llm.handler = benchModel(() => delay);
  let graph: InProcessGraph | undefined;
  const floor = new BullFloor(stack.redis, opts.redisUrl, stack.prefix, WORKFLOW_QUEUES);
  try {
    opts.log('starting the six services and the floor');
    await stack.start();
    await floor.start();
    const machine = await machineFacts(stack.redis);
    graph = new InProcessGraph(loadConfig(stack.env));
    const meter = new CpuMeter(() => [...stack.pids(), ...floor.pids()]);
    const routes = await floorRoutes(graph);

    opts.log('section 1: orchestration overhead');
    const comparisons = await orchestration(
      stack.client,
      graph,
      floor,
      routes,
      meter,
      { levels: LEVELS, turnsPerSession, warmupTurns: quick ? 2 : 10 },
      opts.log,
    );
    const peakRss = stack.memory();

    opts.log('section 1b: Redis round trips per node run (MONITOR, not timed)');
    const tripTurns = quick ? 3 : 10;
    const happyNodes = routes.happy.queues.length;
    const sid = await newSession(stack.client);
    const queuedTrips = await countRoundTrips(stack.redis, async () => {
      for (let i = 0; i < tripTurns; i++) await timedTurn(stack.client, sid, { text: requestFor('happy') });
      return tripTurns * happyNodes;
    });
    const inProcessGraph = graph;
    const split = await turnTimeSplit(stack.client, quick ? 5 : 20, { text: requestFor('happy') }, async () =>
      inProcessGraph.turn(inProcessGraph.newSession(), { text: requestFor('happy') }),
    );
    const floorTrips = await countRoundTrips(stack.redis, async () => {
      for (let i = 0; i < tripTurns; i++) await floor.chain(routes.happy.queues, routes.happy.payload);
      return tripTurns * happyNodes;
    });

    opts.log('section 1c: CPU per turn by process');
    const cpuPerTurn = await cpuPerHappyTurn(stack, floor, inProcessGraph, routes, quick);

    opts.log('section 4: memory per session');
    const memory = await sessionMemory(stack.client, stack.redis, stack.prefix, 10);

    opts.log('section 2: LLM worker scaling');
    delay = LLM_LATENCY_MS;
    await stack.restart('router-llm', 1, { WORKER_CONCURRENCY: '64' });
    const scaling: ScalingPoint[] = [];
    let singleSlot: number | null = null;
    for (const cfg of SCALING) {
      await stack.restart('sql-drafter', cfg.processes, { WORKER_CONCURRENCY: String(cfg.concurrency) });
      const sessions = Math.min(48, Math.max(4, 3 * cfg.processes * cfg.concurrency));
      const r = await closedLoop(stack.client, sessions, warmupMs, windowMs, meter);
      const point = scalingPoint(cfg, sessions, windowMs, LLM_LATENCY_MS, r, singleSlot);
      if (cfg.processes === 1 && cfg.concurrency === 1) singleSlot = point.turns_per_s;
      scaling.push(point);
      opts.log(
        `scaling ${cfg.processes}×${cfg.concurrency}: ${point.turns_per_s} turns/s (ideal ${point.ideal_turns_per_s})`,
      );
    }

    const report: BenchReport = {
      machine,
      settings: {
        quick,
        levels: LEVELS,
        turns_per_session: Object.fromEntries(LEVELS.map((c) => [c, turnsPerSession(c)])),
        llm_latency_ms_scaling: LLM_LATENCY_MS,
        scaling_window_ms: windowMs,
        scaling_warmup_ms: warmupMs,
        worker_concurrency_section_1: 'default (8) for every service',
        router_concurrency_section_2: 64,
      },
      orchestration: comparisons,
      floor: {
        worker_processes: WORKFLOW_QUEUES.length,
        concurrency: 8,
        routes: Object.fromEntries(
          Object.entries(routes).map(([p, r]) => [p, { queues: r.queues, payload_bytes: r.payload_bytes }]),
        ),
      },
      round_trips: { happy_turns: tripTurns, queued: queuedTrips, floor: floorTrips },
      turn_time_split: split,
      cpu_per_turn: cpuPerTurn,
      peak_rss: peakRss,
      session_memory: memory,
      scaling,
      prompt_cost: prompt,
      duration_s: (performance.now() - started) / 1000,
      load_avg_end_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    };
    const markdown = renderMarkdown(report);
    mkdirSync(opts.outDir, { recursive: true });
    const stamp = machine.measured_at.replace(/[:.]/g, '-');
    const json = path.join(opts.outDir, `bench-${stamp}.json`);
    const md = path.join(opts.outDir, `bench-${stamp}.md`);
    writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(md, markdown);
    writeFileSync(path.join(opts.outDir, 'bench-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(opts.outDir, 'bench-latest.md'), markdown);
    return { report, markdown, json, md };
  } finally {
    await graph?.close();
    await floor.stop();
    await stack.stop();
  }
}

/**
 * Section 1c: what one happy-path turn costs the machine's CPU, process by process, at 16
 * sessions, beside a floor chain of the same route and an in-process turn. Each round runs the
 * three one after the other; the figures are the rounds' medians. Where every core is busy (64
 * sessions), turns/s ÷ floor chains/s cannot exceed floor CPU per chain ÷ CPU per turn.
 */
async function cpuPerHappyTurn(
  stack: BenchStack,
  floor: BullFloor,
  graph: InProcessGraph,
  routes: Record<BenchPath, FloorRoute>,
  quick: boolean,
): Promise<CpuPerTurn> {
  const sessions = 16;
  const turns = quick ? 2 : 10;
  const rounds = quick ? 1 : 3;
  const all = async (one: () => Promise<void>) => {
    await Promise.all(Array.from({ length: sessions }, one));
    return sessions * turns;
  };
  const services = Object.fromEntries(stack.processes().map(({ service, proc }) => [service, [proc.pid ?? -1]]));
  const servicePids = new Set(stack.processes().map(({ proc }) => proc.pid));
  const redis = stack.pids().filter((p) => !servicePids.has(p));
  const route = routes.happy;
  const parts: Record<'queued' | 'floor' | 'in_process', CpuSplit[]> = { queued: [], floor: [], in_process: [] };
  for (let r = 0; r < rounds; r++) {
    parts.queued.push(
      await cpuSplit({ ...services, redis }, () =>
        all(async () => {
          const sid = await newSession(stack.client);
          for (let i = 0; i < turns; i++) await timedTurn(stack.client, sid, { text: requestFor('happy') });
        }),
      ),
    );
    parts.floor.push(
      await cpuSplit({ 'floor workers': floor.pids(), redis }, () =>
        all(async () => {
          for (let i = 0; i < turns; i++) await floor.chain(route.queues, route.payload);
        }),
      ),
    );
    parts.in_process.push(
      await cpuSplit({}, () =>
        all(async () => {
          let e = graph.newSession();
          for (let i = 0; i < turns; i++) e = (await graph.turn(e, { text: requestFor('happy') })).envelope;
        }),
      ),
    );
  }
  return {
    sessions,
    turns_per_round: sessions * turns,
    rounds,
    queued: medianSplit(parts.queued),
    floor: medianSplit(parts.floor),
    in_process: medianSplit(parts.in_process),
  };
}
