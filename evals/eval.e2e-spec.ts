import path from 'node:path';
import { runEvalCli } from './src/cli';

/**
 * The eval command, as a Jest e2e file so it gets the workspace's TypeScript setup and a throw-away
 * Redis. It talks to a real LLM and takes minutes, so it runs only when asked:
 * `bash scripts/eval.sh` (RUN_EVAL=1). Scoring itself is tested in CI by scoring.int-spec.ts.
 */
const enabled = process.env.RUN_EVAL === '1';
if (!enabled)
  console.log('eval skipped: set RUN_EVAL=1 (or run `bash scripts/eval.sh`) to run it against the configured LLM');

(enabled ? describe : describe.skip)('eval', () => {
  jest.setTimeout(6 * 60 * 60_000);

  it('runs the eval sets through the gateway and writes the report', async () => {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('REDIS_URL is not set: run through jest (its global setup starts Redis)');
    const root = path.resolve(__dirname, '..');
    const { report, json, md } = await runEvalCli({
      env: process.env,
      redisUrl,
      dist: process.env.EVAL_DIST ?? path.join(root, 'tmp/eval-dist'),
      outDir: process.env.EVAL_OUT_DIR ?? path.join(root, 'reports'),
      log: (line) => process.stderr.write(`[eval] ${line}\n`),
    });
    process.stderr.write(`[eval] wrote ${md} and ${json}\n`);
    // The eval measures a model; it fails only when the run itself broke (no item reached the gateway).
    const items = report.sql?.items ?? [];
    expect(items.length === 0 || items.some((i) => i.outcome !== 'error')).toBe(true);
  });
});
