// CPU per turn, process by process (gateway, each service, Redis, this process with the fakes
// and the load generator), beside CPU per floor chain of the same route and per in-process turn.
// With BASE_DIST, an A/B run: a second stack runs that build (see build-base.sh) and the two take
// turns round by round, so a shared machine's load lands on both alike.
// Uses the bench's build (tmp/bench-dist; `npx tsc -p tsconfig.build.json --outDir tmp/bench-dist
// && npx tsc-alias -p tsconfig.build.json --outDir tmp/bench-dist`).
//   [BASE_DIST=tmp/bench-dist-base] [NEW_NODE_OPTIONS=…] [ROUNDS=3] node -r ./test/support/register-ts.js \
//     bench/tools/cpu-per-turn.ts [sessions] [turns each] [happy|repair]
import { newSession, timedTurn } from '../src/client';
import { loadConfig } from '@nl2p/config';
import { WORKFLOW_QUEUES } from '@nl2p/graph';
import { freePort, startLocalRedis } from '@nl2p/launcher';
import { cpuSplit, type CpuSplit } from '../src/cpu-split';
import { BullFloor } from '../src/floor';
import { InProcessGraph } from '../src/in-process';
import { floorRoutes } from '../src/orchestration';
import { benchModel, requestFor, type BenchPath } from '../src/scripted';
import { BENCH_DIST, BenchStack } from '../src/stack';

async function main(): Promise<void> {
  const sessions = Number(process.argv[2] ?? 16);
  const turns = Number(process.argv[3] ?? 10);
  const benchPath = (process.argv[4] ?? 'happy') as BenchPath;
  const rounds = Number(process.env.ROUNDS ?? 2);
  const redis = await startLocalRedis(await freePort());
  const builds: Record<string, string> = process.env.BASE_DIST
    ? { base: process.env.BASE_DIST, new: BENCH_DIST }
    : { new: BENCH_DIST };
  const stacks = Object.entries(builds).map(([name, dist]) => ({ name, stack: new BenchStack(redis.url, dist) }));
  for (const { stack } of stacks) stack.llm.handler = benchModel(() => 0);
  const first = stacks[0].stack;
  const floor = new BullFloor(first.redis, redis.url, first.prefix, WORKFLOW_QUEUES);
  let graph: InProcessGraph | undefined;
  try {
    // NEW_NODE_OPTIONS: Node options for the "new" stack only (e.g. to A/B a V8 flag on one build).
    const nodeOptions = process.env.BENCH_NODE_OPTIONS;
    for (const { name, stack } of stacks) {
      const options = name === 'new' ? (process.env.NEW_NODE_OPTIONS ?? nodeOptions) : nodeOptions;
      if (options === undefined) delete process.env.BENCH_NODE_OPTIONS;
      else process.env.BENCH_NODE_OPTIONS = options;
      await stack.start();
    }
    await floor.start();
    graph = new InProcessGraph(loadConfig(first.env));
    const routes = await floorRoutes(graph);
    const inGraph = graph;
    const servicePids = new Set(stacks.flatMap(({ stack }) => stack.processes().map((s) => s.proc.pid)));
    const redisPids = first.pids().filter((p) => !servicePids.has(p));

    const sessionsOf = (one: (i: number) => Promise<void>) => async () => {
      await Promise.all(Array.from({ length: sessions }, (_, i) => one(i)));
      return sessions * turns;
    };
    // Each queued turn's latency (client's POST to its answer), per build, for p50/p95.
    const latencies = new Map<BenchStack, number[]>();
    const queuedRun = (stack: BenchStack) =>
      sessionsOf(async () => {
        const sid = await newSession(stack.client);
        for (let i = 0; i < turns; i++) {
          const started = performance.now();
          const { view } = await timedTurn(stack.client, sid, { text: requestFor(benchPath) });
          latencies.set(stack, [...(latencies.get(stack) ?? []), performance.now() - started]);
          if (view.interrupt?.type !== 'need_confirm') throw new Error(`turn ended ${JSON.stringify(view)}`);
        }
      });
    const floorRun = sessionsOf(async () => {
      for (let i = 0; i < turns; i++) await floor.chain(routes[benchPath].queues, routes[benchPath].payload);
    });
    const inProcessRun = sessionsOf(async () => {
      let e = inGraph.newSession();
      for (let i = 0; i < turns; i++) e = (await inGraph.turn(e, { text: requestFor(benchPath) })).envelope;
    });
    // Warm-up: compiled code, caches, connections.
    for (const { stack } of stacks) await queuedRun(stack)();
    await floorRun();
    await inProcessRun();
    latencies.clear();
    console.log(
      `route (${benchPath}): ${routes[benchPath].queues.length} node runs, queues ${routes[benchPath].queues.join(' → ')}`,
    );
    const show = (label: string, s: CpuSplit) =>
      console.log(
        `${label}: ${s.units} in ${s.wall_s} s = ${(s.units / s.wall_s).toFixed(1)}/s; CPU ms per unit ${s.total_per_unit_ms} = ` +
          Object.entries(s.per_unit_ms)
            .filter(([, v]) => v > 0)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
      );
    const totals = new Map<string, number[]>();
    for (let round = 0; round < rounds; round++) {
      for (const { name, stack } of stacks) {
        const services = Object.fromEntries(stack.processes().map(({ service, proc }) => [service, [proc.pid ?? -1]]));
        const split = await cpuSplit({ ...services, redis: redisPids }, queuedRun(stack));
        show(`queued ${name}`, split);
        totals.set(name, [...(totals.get(name) ?? []), split.total_per_unit_ms]);
      }
      show('floor', await cpuSplit({ floor: floor.pids(), redis: redisPids }, floorRun));
      show('in-process', await cpuSplit({}, inProcessRun));
    }
    for (const [name, t] of totals) {
      const sorted = [...t].sort((a, b) => a - b);
      const ms = [...(latencies.get(stacks.find((s) => s.name === name)!.stack) ?? [])].sort((a, b) => a - b);
      const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN).toFixed(1);
      console.log(
        `queued ${name}: median CPU ms per turn ${sorted[Math.floor(sorted.length / 2)]} over ${t.length} rounds; ` +
          `turn latency p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (${ms.length} turns at ${sessions} session(s))`,
      );
    }
  } finally {
    await graph?.close();
    await floor.stop();
    for (const { stack } of stacks) await stack.stop();
    await redis.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
