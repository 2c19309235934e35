import path from 'node:path';
import { LINKER_SETS, runLinkerEval, type LinkerSet } from './linker-eval';

/**
 * The offline linker eval (evals/README.md), as a Jest file so it gets the workspace's TypeScript
 * setup. A measure, not a test: skipped unless LINKER_EVAL=1 (`bash scripts/eval.sh --linker`).
 * LINKER_EVAL_SETS picks sets (space- or comma-separated; default all).
 */
const enabled = process.env.LINKER_EVAL === '1';

(enabled ? describe : describe.skip)('offline linker eval', () => {
  jest.setTimeout(10 * 60_000);

  it('runs the sets through the no-model path and prints the figures', async () => {
    const wanted = (process.env.LINKER_EVAL_SETS ?? '').split(/[\s,]+/).filter(Boolean);
    const unknown = wanted.filter((s) => !(LINKER_SETS as readonly string[]).includes(s));
    if (unknown.length) throw new Error(`unknown set ${unknown.join(', ')}; the sets are ${LINKER_SETS.join(', ')}`);
    const sets = wanted.length ? (wanted as LinkerSet[]) : [...LINKER_SETS];
    const root = path.resolve(__dirname, '../../..');
    const { summary, runs } = await runLinkerEval({
      sets,
      env: process.env,
      outDir: process.env.EVAL_OUT_DIR ?? path.join(root, 'reports'),
      workDir: path.join(root, 'tmp', 'linker-eval'),
      spiderCacheDir: path.join(root, 'tmp', 'spider-duckdb'),
      log: (line) => process.stderr.write(`[linker-eval] ${line}\n`),
    });
    process.stdout.write(`\n${summary}\n`);
    expect(runs.length).toBeGreaterThan(0);
  });
});
