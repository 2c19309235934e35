// CPU profile of the happy path's handlers in one process (bench/README.md, "Where a node run's
// time goes"): the fake Manager and the scripted model answer instantly in this same process, so
// the profile holds the handlers, their HTTP clients and the fakes, and nothing of the queues.
//   node -r ./test/support/register-ts.js bench/tools/profile-in-process.ts [turns] [path]
// writes tmp/profiles/in-process-<pid>.cpuprofile and prints the mean ms per turn.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { loadConfig } from '@nl2p/config';
import { FakeManager, ScriptedLlm } from '@nl2p/testing';
import { InProcessGraph } from '../src/in-process';
import { benchModel, requestFor, type BenchPath } from '../src/scripted';

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 300);
  const benchPath = (process.argv[3] ?? 'happy') as BenchPath;
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  llm.handler = benchModel(() => 0);
  const [managerUrl, llmUrl] = await Promise.all([manager.start(), llm.start()]);
  const graph = new InProcessGraph(
    loadConfig({
      TARGET: 'veloflux',
      VELOFLUX_URL: managerUrl,
      LLM_BASE_URL: llmUrl,
      LLM_API_KEY: 'bench-not-secret',
      LLM_MODEL: 'scripted',
      DRAFT_MODE: 'sql',
      LINKING: 'false',
      REDIS_URL: 'redis://127.0.0.1:1',
      LOG_LEVEL: 'warn',
    }),
  );
  const run = async (n: number) => {
    let envelope = graph.newSession();
    const started = performance.now();
    for (let i = 0; i < n; i++) envelope = (await graph.turn(envelope, { text: requestFor(benchPath) })).envelope;
    return (performance.now() - started) / n;
  };
  await run(50); // warm-up: compiled code, catalog cached
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const ms = await run(turns);
  const { profile } = await session.post('Profiler.stop');
  const dir = process.env.CPU_PROFILE_DIR ?? 'tmp/profiles';
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `in-process-${process.pid}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`${turns} ${benchPath} turns: ${ms.toFixed(2)} ms per turn (profiled); ${file}`);
  const plain = await run(turns);
  console.log(`${turns} ${benchPath} turns: ${plain.toFixed(2)} ms per turn (not profiled)`);
  await graph.close();
  await Promise.all([manager.stop(), llm.stop()]);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
