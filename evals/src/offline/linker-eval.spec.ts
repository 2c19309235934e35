import path from 'node:path';
import { loadConfig } from '@nl2p/config';
import { createLlmClient, llmProvider, type LlmClient, type LlmJsonRequest } from '@nl2p/llm';
import { LINKER_SETS, runLinkerEval, type Chooser, type LinkerSet } from './linker-eval';

/**
 * The offline linker eval (evals/README.md), as a Jest file so it gets the workspace's TypeScript
 * setup. A measure, not a test: skipped unless LINKER_EVAL=1 (`bash scripts/eval.sh --linker`).
 * LINKER_EVAL_SETS picks sets (space- or comma-separated; default all). LINKER_EVAL_CHOOSER=1 puts
 * the close calls to the configured model as a chooser (`--linker --chooser`: the embedded model
 * unless LLM_BASE_URL names a server), at most LINKER_EVAL_CHOOSER_CAP calls (default 300);
 * LINKER_EVAL_CHOOSER=first is the baseline a model must beat: always the first candidate (the
 * linker's best-scored), with no model; `last` always the last one (with `first`, what a perfect
 * chooser could reach where two candidates tie).
 */
const enabled = process.env.LINKER_EVAL === '1';

(enabled ? describe : describe.skip)('offline linker eval', () => {
  // With the model as a chooser on a busy 2-core machine, the run takes longer than the no-model path.
  jest.setTimeout((process.env.LINKER_EVAL_CHOOSER ? 45 : 10) * 60_000);

  it('runs the sets through the no-model path and prints the figures', async () => {
    const wanted = (process.env.LINKER_EVAL_SETS ?? '').split(/[\s,]+/).filter(Boolean);
    const unknown = wanted.filter((s) => !(LINKER_SETS as readonly string[]).includes(s));
    if (unknown.length) throw new Error(`unknown set ${unknown.join(', ')}; the sets are ${LINKER_SETS.join(', ')}`);
    const sets = wanted.length ? (wanted as LinkerSet[]) : [...LINKER_SETS];
    const root = path.resolve(__dirname, '../../..');
    const mode = process.env.LINKER_EVAL_CHOOSER;
    const chooser =
      mode === '1' ? chooserOf(root) : mode === 'first' || mode === 'last' ? candidateChooser(mode) : null;
    const { summary, runs } = await runLinkerEval({
      sets,
      env: process.env,
      outDir: process.env.EVAL_OUT_DIR ?? path.join(root, 'reports'),
      workDir: path.join(root, 'tmp', 'linker-eval'),
      spiderCacheDir: path.join(root, 'tmp', 'spider-duckdb'),
      log: (line) => process.stderr.write(`[linker-eval] ${line}\n`),
      chooser,
    });
    if (mode === '1') await llmProvider(loadConfig(process.env)).dispose?.();
    process.stdout.write(`\n${summary}\n`);
    expect(runs.length).toBeGreaterThan(0);
  });
});

/** The deployment's model (the embedded one by default), as a chooser capped at LINKER_EVAL_CHOOSER_CAP calls. */
function chooserOf(root: string): Chooser {
  const env = { LOCAL_MODEL_PATH: path.join(root, 'models/SmolLM2-135M-Instruct.Q4_1.gguf'), ...process.env };
  const config = loadConfig(env);
  process.stderr.write(`[linker-eval] chooser: ${llmProvider(config).whereabouts(config).split('\n')[0]}\n`);
  return { llm: createLlmClient(config), cap: Number(process.env.LINKER_EVAL_CHOOSER_CAP ?? 300), calls: 0 };
}

/**
 * A baseline chooser: no model, always the first (or last) candidate the prompt lists (the first
 * is the linker's best-scored), validated against the request's enumeration like any answer.
 */
function candidateChooser(which: 'first' | 'last'): Chooser {
  const llm: LlmClient = {
    text: () => Promise.reject(new Error('the baseline chooser only chooses')),
    json: <T>(r: LlmJsonRequest<T>) => {
      const prompt = r.messages.map((m) => m.content).join('\n');
      const listed = (/^Candidates: (.+)$/m.exec(prompt)?.[1] ?? '').split('; ');
      const value = r.schema.parse({ choice: which === 'first' ? listed[0] : listed.at(-1) });
      const usage = {
        model: `${which}-candidate`,
        input_tokens: 0,
        output_tokens: 0,
        latency_ms: 0,
        finish_reason: null,
        retries: 0,
      };
      return Promise.resolve({ value, text: JSON.stringify(value), usage });
    },
  };
  return { llm, cap: Number.POSITIVE_INFINITY, calls: 0 };
}
