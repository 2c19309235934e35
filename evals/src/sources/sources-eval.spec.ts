import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tmpPipelineId } from '@nl2p/envelope';
import { DuckDbTarget, executeDag, loadDemoData, qualifyPlan, SqlSources } from '@nl2p/engine';
import { checkAcrossSources, decomposePlan } from '@nl2p/execution-dag';
import { countsOf, templateAnswer, unbackedNumbers } from '@nl2p/answer';
import { parseQueryPlan, type QueryPlan } from '@nl2p/query-plan';
import { CROSS_SOURCE_SET, type CrossSourceItem } from './cross-source-set';
import { writeSplitData, type SplitData } from './split-data';

/**
 * The cross-source eval: each request's plan split, run on real DuckDB and real PostgreSQL and
 * combined, against gold SQL on one DuckDB holding all the demo tables. A measure, not a test:
 * skipped unless SOURCES_EVAL=1 (`bash scripts/eval.sh --sources`, which starts PostgreSQL).
 */
const enabled = process.env.SOURCES_EVAL === '1' && !!process.env.POSTGRES_URL;
const url = process.env.POSTGRES_URL ?? '';
const tmpId = tmpPipelineId('0123456789abcdef0123456789abcdef', 1, 1);

type Verdict = 'match' | 'wrong' | 'asked' | 'error';

(enabled ? describe : describe.skip)('cross-source eval', () => {
  jest.setTimeout(10 * 60_000);
  let data: SplitData;
  let gold: DuckDbTarget;

  beforeAll(async () => {
    data = await writeSplitData(url);
    gold = new DuckDbTarget({ path: ':memory:', setup: loadDemoData, previewRows: 5_000 });
  });

  afterAll(async () => {
    await gold.close();
    await data.remove();
  });

  function sourcesFor(item: CrossSourceItem): SqlSources {
    return new SqlSources(data.sources(item.variant ?? 'split'), { rowLimit: item.rowLimit ?? 10_000, queryTimeoutMs: 5_000 }); // prettier-ignore
  }

  async function answer(item: CrossSourceItem): Promise<{ verdict: Verdict; ms: number; note: string; sentence?: Sentence }> {
    const sources = sourcesFor(item);
    const started = performance.now();
    try {
      const catalog = await sources.catalog();
      const qualified = qualifyPlan(parseQueryPlan(item.plan ?? {}), catalog);
      const ms = (): number => Math.round(performance.now() - started);
      if ('question' in qualified) return { verdict: 'asked', ms: ms(), note: qualified.question };
      const checked = checkAcrossSources(qualified.plan, catalog.tables);
      if (!checked.ok) return { verdict: 'error', ms: ms(), note: checked.errors.join('; ') };
      const dag = decomposePlan(checked.plan, catalog.tables);
      const outcome = await executeDag(dag, sources, catalog.tables, { tmpId, rowLimit: 5_000, timeoutMs: 5_000 });
      const elapsed = ms();
      if (outcome.kind === 'question') return { verdict: 'asked', ms: elapsed, note: outcome.question };
      if (!item.gold) return { verdict: 'wrong', ms: elapsed, note: 'answered where a question was expected' };
      const expected = await gold.preview(item.gold);
      const same = sameRows(outcome.rows, expected.rows);
      const sentence = answerSentence(checked.plan, outcome);
      return { verdict: same ? 'match' : 'wrong', ms: elapsed, sentence, note: same ? outcome.assumptions.join(' ') : `got ${JSON.stringify(outcome.rows.slice(0, 3))}, want ${JSON.stringify(expected.rows.slice(0, 3))}` };
    } catch (err) {
      return { verdict: 'error', ms: Math.round(performance.now() - started), note: err instanceof Error ? err.message : String(err) };
    } finally {
      await sources.close();
    }
  } // prettier-ignore

  it('runs every request and prints the figures', async () => {
    const results: { item: CrossSourceItem; verdict: Verdict; ms: number; note: string; sentence?: Sentence }[] = [];
    // Items without a plan belong to the request-reading run only (sources-requests.e2e-spec.ts).
    for (const item of CROSS_SOURCE_SET.filter((i) => i.plan)) results.push({ item, ...(await answer(item)) });
    const answerable = results.filter((r) => r.item.expect === 'answer');
    const clarify = results.filter((r) => r.item.expect === 'clarify');
    const ms = answerable.map((r) => r.ms).sort((a, b) => a - b);
    const pct = (p: number): number => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
    const count = (rs: typeof results, v: Verdict): number => rs.filter((r) => r.verdict === v).length;
    const sentences = results.flatMap((r) => (r.sentence ? [r.sentence] : []));
    const backed = sentences.filter((x) => x.unbacked.length === 0).length;
    const lines = [
      '| set | answerable | execution match | accepted but wrong | errors | clarification when expected / when not | answer sentences backed by the rows | p50 / p95 latency |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      `| cross-source (shop DuckDB + crm PostgreSQL) | ${answerable.length} | ${count(answerable, 'match')}/${answerable.length} | ${count(answerable, 'wrong')} | ${count(answerable, 'error') + count(clarify, 'error')} | ${count(clarify, 'asked')}/${clarify.length} / ${count(answerable, 'asked')}/${answerable.length} | ${backed}/${sentences.length} | ${pct(0.5)} ms / ${pct(0.95)} ms |`,
      '',
      ...results.map((r) => `- ${r.item.id} ${r.verdict} (${r.ms} ms): ${r.item.request}${r.note ? ` — ${r.note}` : ''}${r.sentence ? ` — “${r.sentence.text}”${r.sentence.unbacked.length ? ` UNBACKED: ${r.sentence.unbacked.join(', ')}` : ''}` : ''}`),
    ]; // prettier-ignore
    const report = lines.join('\n');
    const out = process.env.EVAL_OUT_DIR ?? path.resolve(__dirname, '../../../reports');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'sources-eval-latest.md'), `${report}\n`);
    process.stdout.write(`\n${report}\n`);
    expect(results).toHaveLength(CROSS_SOURCE_SET.filter((i) => i.plan).length);
  });
});

/** The answer in words as a turn over sources writes it, and the numbers in it no row holds. */
interface Sentence {
  text: string;
  unbacked: string[];
}

function answerSentence(
  plan: QueryPlan,
  outcome: { columns: string[]; rows: unknown[][]; truncated: boolean; assumptions: string[] },
): Sentence {
  const input = { plan, columns: outcome.columns, rows: outcome.rows, truncated: outcome.truncated, assumptions: outcome.assumptions }; // prettier-ignore
  const text = templateAnswer(input);
  return { text, unbacked: unbackedNumbers(text, outcome.rows, countsOf(input)) };
}

/** Same rows in the same order; numbers equal to 1e-6 relative (decimals travel as doubles). */
function sameRows(actual: unknown[][], expected: unknown[][]): boolean {
  if (actual.length !== expected.length) return false;
  return actual.every((row, i) => {
    const want = expected[i] ?? [];
    return row.length === want.length && row.every((v, j) => sameValue(v, want[j]));
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  return JSON.stringify(a) === JSON.stringify(b);
}
