import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LinkSchema } from '@nl2p/linking';
import { ScriptedLlm } from '@nl2p/testing';
// The six services in this process, as the integration tests start them (no build needed).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startStack, type Stack } from '../../../test/support/stack';
import { evalGateway } from '../gateway';
import { duckDbLinkSchema } from '../offline/link-schema';
import { ResultDb } from '../results';
import { CROSS_SOURCE_SET, type CrossSourceItem } from './cross-source-set';
import { writeSplitData, type SplitData } from './split-data';
import {
  askOverSources,
  readOnOneDatabase,
  renderRequestsReport,
  scoreTurn,
  summarize,
  type RequestResult,
} from './sources-requests';

/**
 * The request-reading cross-source eval: every item's natural-language request through the
 * gateway and the six services (in this process, on real Redis and BullMQ), in a session over
 * all SQL sources: the demo split across a real DuckDB file (`shop`) and a real PostgreSQL schema
 * (`crm`). The model is a scripted one that knows nothing, so the figures are the linker's and
 * the split's alone; any call to it is counted. A measure, not a test: skipped unless
 * SOURCES_REQUESTS_EVAL=1 (`bash scripts/eval.sh --sources`, which starts PostgreSQL).
 */
const enabled = process.env.SOURCES_REQUESTS_EVAL === '1' && !!process.env.POSTGRES_URL;
/**
 * `SOURCES_EVAL_MODEL=embedded`: the services load the embedded local model with the product's
 * defaults for it (plan mode, trusted links, the template writing the answer) instead of the
 * scripted model, to show what, if anything, a model changes in a session over all sources.
 */
const embedded = process.env.SOURCES_EVAL_MODEL === 'embedded';
const MODEL_ENV: Record<string, string> = embedded
  ? { LLM_PROVIDER: 'local', DRAFT_MODE: 'plan' }
  : { DRAFT_MODE: 'plan', ANSWER_WRITER: 'template' };
const url = process.env.POSTGRES_URL ?? '';

(enabled ? describe : describe.skip)('cross-source eval, requests read by the product', () => {
  jest.setTimeout(20 * 60_000);
  const llm = new ScriptedLlm();
  let llmUrl: string;
  let data: SplitData;
  let gold: ResultDb;
  let oneDatabase: LinkSchema;

  beforeAll(async () => {
    llmUrl = await llm.start();
    data = await writeSplitData(url);
    // Read before the gold database is opened for queries (one process, one configuration per file).
    oneDatabase = await duckDbLinkSchema(data.goldPath);
    gold = new ResultDb(data.goldPath);
  });

  afterAll(async () => {
    await gold?.close();
    await data?.remove();
    await llm.stop();
  });

  /** One stack per variant and row limit: the deployment the items of that group ask. */
  async function stackFor(item: CrossSourceItem): Promise<Stack> {
    return startStack({
      llmUrl,
      env: {
        SQL_SOURCES: data.sqlSources(item.variant ?? 'split'),
        ...(item.rowLimit ? { SOURCE_ROW_LIMIT: String(item.rowLimit) } : {}),
        LINKING: 'true',
        ...MODEL_ENV,
        QUERY_TIMEOUT_MS: '10000',
      },
    });
  }

  it('reads every request over the two sources and prints the figures', async () => {
    const groups = new Map<string, CrossSourceItem[]>();
    for (const item of CROSS_SOURCE_SET) {
      const key = `${item.variant ?? 'split'}/${item.rowLimit ?? ''}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const byId = new Map<string, RequestResult>();
    let settings = '';
    for (const items of groups.values()) {
      const stack = await stackFor(items[0]);
      // What the services ran with, as their config resolved it (the report names it).
      const { llm: model, workflow } = stack.config;
      settings = `LLM provider ${model.provider}, draft mode ${workflow.draftMode}, answer by ${workflow.answerWriter}`;
      try {
        const gw = evalGateway(stack.gatewayUrl);
        for (const item of items) byId.set(item.id, await scoreTurn(item, await askOverSources(gw, item.request, 60_000), gold)); // prettier-ignore
      } finally {
        await stack.close();
      }
    }
    const results: RequestResult[] = [];
    for (const item of CROSS_SOURCE_SET) {
      const result = byId.get(item.id) as RequestResult;
      results.push({ ...result, one_database: await readOnOneDatabase(item, oneDatabase, gold) });
    }
    const model = embedded ? 'the embedded model' : 'a scripted model that knows nothing';
    const title = `Cross-source requests read by the product (${model}; ${settings})`;
    const report = renderRequestsReport(title, results);
    const out = process.env.EVAL_OUT_DIR ?? path.resolve(__dirname, '../../../reports');
    const name = embedded ? 'sources-requests-embedded-latest' : 'sources-requests-latest';
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, `${name}.md`), report);
    writeFileSync(path.join(out, `${name}.json`), `${JSON.stringify({ summary: summarize(results), results }, null, 2)}\n`); // prettier-ignore
    process.stdout.write(`\n${report}`);
    // A measure: it fails only when the run itself broke (no turn reached the gateway).
    expect(results.some((r) => r.verdict !== 'failed')).toBe(true);
  });
});
