import path from 'node:path';
import { runBench } from './src/run';

/**
 * The bench, as a Jest e2e file so it gets the workspace's TypeScript setup and a throw-away
 * Redis. It takes minutes, so it runs only when asked: `bash scripts/bench.sh` (RUN_BENCH=1).
 */
const enabled = process.env.RUN_BENCH === '1';
if (!enabled) console.log('bench skipped: set RUN_BENCH=1 (or run `bash scripts/bench.sh`) to run it');

(enabled ? describe : describe.skip)('bench', () => {
  jest.setTimeout(20 * 60_000);

  it('measures orchestration, worker scaling, prompt cost and memory, and writes the report', async () => {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('REDIS_URL is not set: run through jest (its global setup starts Redis)');
    const outDir = process.env.BENCH_OUT_DIR ?? path.resolve(__dirname, '../reports');
    const { report, json, md } = await runBench({
      redisUrl,
      outDir,
      quick: process.env.BENCH_QUICK === '1',
      log: (line) => process.stderr.write(`[bench] ${line}\n`),
    });
    process.stderr.write(`[bench] wrote ${md} and ${json}\n`);

    // The bench measures; these only catch a broken run (a figure from failed turns is no figure).
    for (const c of report.orchestration) {
      expect({ series: `${c.path} x${c.concurrency}`, errors: c.queued.errors + c.in_process.errors }).toEqual({
        series: `${c.path} x${c.concurrency}`,
        errors: 0,
      });
    }
    for (const s of report.scaling) expect(s.completed).toBeGreaterThan(0);
    expect(report.session_memory.failed_turns).toBe(0);
  });
});
