import path from 'node:path';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { ensureDemoDatabase } from '@nl2p/engine';
import {
  DRAFT_SYSTEM_MARK,
  REVISE_SYSTEM_MARK,
  ROUTER_SYSTEM_MARK,
  type ReviseOutput,
  type RouterOutput,
} from '@nl2p/prompts';
import { FakeManager, ScriptedLlm, scriptedTokenCount, type ScriptedReply, type ScriptedRequest } from '@nl2p/testing';
import { loadSqlSet, loadVelofluxSet, selectItems } from './src/dataset';
import { evalGateway } from './src/gateway';
import { ROOT } from '@nl2p/testing';
import { ResultDb } from './src/results';
import { ReferencePlans } from './src/reference-plans';
import { outputJudge } from './src/cli';
import { runSqlEval, runVelofluxEval } from './src/runner';
import { startEvalStack, type EvalStack } from './src/stack';

/**
 * The eval runner and its scoring, end to end with a scripted model (CI: proves the runner and the
 * scores, not any model's quality). The model is right on some items and wrong on others in known
 * ways; the runner must come out with exactly the expected scores.
 */
jest.setTimeout(60_000);

interface Plan {
  route: RouterOutput;
  drafts: string[];
  revisions?: ReviseOutput[];
}

const sql = loadSqlSet();
const gold = (id: string) => sql.items.find((i) => i.id === id)?.gold_sql as string;
const nl2sql = (stream: string | null): RouterOutput => ({ intent: 'nl2sql', stream, question: null });
const BAD_ALIAS = 'SELECT r.device_id, avg(r.temp) AS avg_temp FROM sensor_readings r GROUP BY r.device_id';
const revision = (s: string): ReviseOutput => ({ sql: s, questions: [], assumptions: [] });

/** By item id: what the scripted model answers to each call for that request. */
const PLANS: Record<string, Plan> = {
  // 1–5: the gold SQL, first try (group-02 names no table, so the product asks which one).
  'filter-02': { route: nl2sql('orders'), drafts: [gold('filter-02')] },
  'aggregate-04': { route: nl2sql('orders'), drafts: [gold('aggregate-04')] },
  'group-02': { route: nl2sql(null), drafts: [gold('group-02')] },
  'time-02': { route: nl2sql('orders'), drafts: [gold('time-02')] },
  'topn-01': { route: nl2sql('sensor_readings'), drafts: [gold('topn-01')] },
  // 6–8: valid SQL that answers something else. Where its condition is one the request does not
  // say (France for Germany, 25 for 30), the turn asks instead of offering it (issue 23).
  'filter-03': { route: nl2sql('customers'), drafts: ["SELECT name FROM customers WHERE country = 'France'"] },
  'aggregate-08': {
    route: nl2sql('sensor_readings'),
    drafts: ['SELECT count(*) FROM sensor_readings WHERE temperature > 25'],
  },
  'group-05': {
    route: nl2sql('sensor_readings'),
    drafts: ['SELECT device_id, min(humidity) FROM sensor_readings GROUP BY device_id'],
  },
  // 9: an unknown column behind an alias, which only the engine catches, on every attempt.
  'group-01': {
    route: nl2sql('sensor_readings'),
    drafts: [BAD_ALIAS],
    revisions: [revision(BAD_ALIAS), revision(BAD_ALIAS)],
  },
  // 10: an unknown column (caught locally), then a DROP (refused locally), then the gold SQL.
  'aggregate-02': {
    route: nl2sql('sensor_readings'),
    drafts: ['SELECT max(temp) FROM sensor_readings'],
    revisions: [revision('DROP TABLE sensor_readings'), revision(gold('aggregate-02'))],
  },
  // Clarifications: asked by the drafter, asked by the router, and one the model answers with SQL anyway.
  'clarify-06': {
    route: nl2sql('sensor_readings'),
    drafts: ['QUESTION: There is no wind speed column; which measurement do you mean?'],
  },
  'clarify-02': { route: { intent: 'ask_user', stream: null, question: 'Best by which measure?' }, drafts: [] },
  'clarify-01': { route: nl2sql('sensor_readings'), drafts: ['SELECT * FROM sensor_readings'] },
  // veloFlux (fake Manager): the reference's plan under other aliases and another column order; a
  // valid query with the wrong plan; `SELECT *` where the reference names columns; a question.
  'vf-01': {
    route: nl2sql('sensor_stream'),
    drafts: [
      "SELECT avg(temperature) AS mean_temperature, device_id FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)",
    ],
  },
  'vf-09': { route: nl2sql('vehicle'), drafts: ['SELECT * FROM vehicle'] },
  'vf-02': {
    route: nl2sql('sensor_stream'),
    drafts: [
      "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)",
    ],
  },
  'vf-12': {
    route: nl2sql('sensor_stream'),
    drafts: ['QUESTION: The stream has no wind speed; which column do you mean?'],
  },
};

class ScriptedModel {
  readonly calls = new Map<string, { draft: number; revise: number }>();
  promptTokens = 0;
  completionTokens = 0;
  private readonly byRequest = new Map<string, string>();

  constructor(requests: Record<string, string>) {
    for (const [id, text] of Object.entries(requests)) this.byRequest.set(text, id);
  }

  answer = (req: ScriptedRequest): ScriptedReply => {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = req.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    const request = /<user_request>\n([\s\S]*?)\n<\/user_request>/.exec(user)?.[1] ?? '';
    const id = this.byRequest.get(request);
    const plan = id ? PLANS[id] : undefined;
    if (!id || !plan)
      return {
        status: 400,
        body: `unscripted request ${JSON.stringify(request)}`,
        headers: { 'x-should-retry': 'false' },
      };
    const n = this.calls.get(id) ?? { draft: 0, revise: 0 };
    this.calls.set(id, n);
    let content: string | undefined;
    if (system.includes(ROUTER_SYSTEM_MARK)) content = JSON.stringify(plan.route);
    else if (system.includes(DRAFT_SYSTEM_MARK)) content = plan.drafts[n.draft++];
    else if (system.includes(REVISE_SYSTEM_MARK)) {
      const r = plan.revisions?.[n.revise++];
      content = r ? JSON.stringify(r) : undefined;
    }
    if (content === undefined)
      return { status: 400, body: `no scripted answer left for ${id}`, headers: { 'x-should-retry': 'false' } };
    this.promptTokens += scriptedTokenCount(req.messages.reduce((s, m) => s + m.content.length, 0));
    this.completionTokens += scriptedTokenCount(content.length);
    return { content };
  };
}

describe('eval runner and scoring, with a scripted model', () => {
  const llm = new ScriptedLlm();
  const manager = new FakeManager();
  const goldPath = path.join(os.tmpdir(), `nl2p-scoring-${randomUUID().slice(0, 8)}.duckdb`);
  const sqlItems = selectItems(sql.items, [
    'filter-02',
    'aggregate-04',
    'group-02',
    'time-02',
    'topn-01',
    'filter-03',
    'aggregate-08',
    'group-05',
    'group-01',
    'aggregate-02',
    'clarify-06',
    'clarify-02',
    'clarify-01',
  ]);
  const veloItems = selectItems(loadVelofluxSet().items, ['vf-01', 'vf-02', 'vf-09', 'vf-12']);
  const model = new ScriptedModel(Object.fromEntries([...sqlItems, ...veloItems].map((i) => [i.id, i.request])));
  let stack: EvalStack;
  let db: ResultDb;
  let managerUrl: string;

  beforeAll(async () => {
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('REDIS_URL is not set: run through jest (its global setup starts Redis)');
    llm.handler = model.answer;
    let llmUrl: string;
    [llmUrl, managerUrl] = await Promise.all([llm.start(), manager.start(), ensureDemoDatabase(goldPath)]);
    stack = await startEvalStack({
      redisUrl,
      dist: process.env.EVAL_DIST ?? path.join(ROOT, 'dist'),
      velofluxUrl: managerUrl,
      env: {
        LLM_BASE_URL: llmUrl,
        LLM_API_KEY: 'scripted',
        LLM_MODEL: 'scripted',
        // The scripted model answers these items with free SQL and router JSON.
        DRAFT_MODE: 'sql',
        LINKING: 'false',
        LLM_MAX_RETRIES: '0',
        MAX_ATTEMPTS: '3',
        ENGINE_BACKOFF_MS: '10',
      },
    });
    db = new ResultDb(goldPath);
  });

  afterAll(async () => {
    await db?.close();
    await stack?.stop();
    await Promise.all([llm.stop(), manager.stop()]);
    rmSync(goldPath, { force: true });
  });

  it('scores the DuckDB items exactly as scripted', async () => {
    const gateway = evalGateway(stack.gatewayUrl, stack.apiKey);
    const { summary, items } = await runSqlEval(sqlItems, db, { gateway, concurrency: 4, turnTimeoutMs: 20_000 });
    const byId = Object.fromEntries(items.map((i) => [i.id, i]));

    expect(
      items.map((i) => ({
        id: i.id,
        outcome: i.outcome,
        first: i.valid_first_try,
        budget: i.valid_within_budget,
        match: i.execution_match,
        asked: i.clarification_asked,
        attempts: i.attempts,
        grounding: i.grounding_violations,
        unsafe: i.unsafe_statements,
      })),
    ).toEqual([
      {
        id: 'filter-02',
        outcome: 'sql',
        first: true,
        budget: true,
        match: true,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'aggregate-04',
        outcome: 'sql',
        first: true,
        budget: true,
        match: true,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'group-02',
        outcome: 'sql',
        first: true,
        budget: true,
        match: true,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'time-02',
        outcome: 'sql',
        first: true,
        budget: true,
        match: true,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'topn-01',
        outcome: 'sql',
        first: true,
        budget: true,
        match: true,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'filter-03',
        outcome: 'clarification',
        first: false,
        budget: false,
        match: false,
        asked: true,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'aggregate-08',
        outcome: 'clarification',
        first: false,
        budget: false,
        match: false,
        asked: true,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'group-05',
        outcome: 'sql',
        first: true,
        budget: true,
        match: false,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'group-01',
        outcome: 'gave_up',
        first: false,
        budget: false,
        match: false,
        asked: false,
        attempts: 3,
        grounding: 3,
        unsafe: 0,
      },
      {
        id: 'aggregate-02',
        outcome: 'sql',
        first: false,
        budget: true,
        match: true,
        asked: false,
        attempts: 3,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'clarify-06',
        outcome: 'clarification',
        first: false,
        budget: false,
        match: null,
        asked: true,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'clarify-02',
        outcome: 'clarification',
        first: false,
        budget: false,
        match: null,
        asked: true,
        attempts: 0,
        grounding: 0,
        unsafe: 0,
      },
      {
        id: 'clarify-01',
        outcome: 'sql',
        first: true,
        budget: true,
        match: null,
        asked: false,
        attempts: 1,
        grounding: 0,
        unsafe: 0,
      },
    ]);
    expect(items.filter((i) => i.asked_stream).map((i) => i.id)).toEqual(['group-02']);
    expect(byId['aggregate-02']?.failures.map((f) => f.stage)).toEqual(['local', 'local']);
    expect(byId['group-01']?.failures.map((f) => f.stage)).toEqual(['engine', 'engine', 'engine']);
    // The drafts' conditions contradict the request's words: the turn names them and asks.
    expect(byId['filter-03']?.outcome).toBe('clarification');

    expect(summary).toMatchObject({
      items: 13,
      sql_items: 10,
      clarify_items: 3,
      valid_first_try: { count: 6, of: 10, rate: 0.6 },
      valid_within_budget: { count: 7, of: 10, rate: 0.7 },
      execution_match: { count: 6, of: 10, rate: 0.6 },
      clarification_when_expected: { count: 2, of: 3, rate: 0.667 },
      clarification_when_not_expected: { count: 2, of: 10, rate: 0.2 },
      gave_up: 1,
      grounding_violations: 3,
      unsafe_statements: 0,
      unsafe_refused_by_adapter: 0,
      unparsable_refused_by_adapter: 0,
      other_answers: 0,
      errors: 0,
      attempts_mean: 1.23,
      by_category: {
        filter: { n: 2, valid: 1, match: 1, clarified: 1 },
        aggregate: { n: 3, valid: 2, match: 2, clarified: 1 },
        group_by: { n: 3, valid: 2, match: 1, clarified: 0 },
        time_bucket: { n: 1, valid: 1, match: 1, clarified: 0 },
        top_n: { n: 1, valid: 1, match: 1, clarified: 0 },
        clarify_impossible: { n: 1, valid: 0, match: 0, clarified: 1 },
        clarify_ambiguous: { n: 2, valid: 1, match: 0, clarified: 1 },
      },
    });
    // Tokens come from the trace: exactly what the scripted server reported, call by call.
    expect(summary.llm_calls_total).toBe(llm.requests.length);
    expect(summary.tokens_in_total).toBe(model.promptTokens);
    expect(summary.tokens_out_total).toBe(model.completionTokens);
    for (const i of items) expect(i.latency_ms).toBeGreaterThan(0);
  });

  it("scores the veloFlux items by the engine's plan of the accepted SQL against its plan of the reference", async () => {
    const gateway = evalGateway(stack.gatewayUrl, stack.apiKey);
    const references = new ReferencePlans(managerUrl);
    // As the eval command judges with the fake Manager: output match says it measured nothing.
    const outputs = outputJudge({ VELOFLUX_DRY_RUN_BROKER_URL: 'tcp://127.0.0.1:1883' }, managerUrl, true);
    const { summary, items } = await runVelofluxEval(veloItems, {
      gateway,
      turnTimeoutMs: 20_000,
      references,
      outputs,
    });
    expect(items.map((i) => ({ id: i.id, outcome: i.outcome, plan: i.plan_match, detail: i.plan_detail }))).toEqual([
      { id: 'vf-01', outcome: 'sql', plan: true, detail: null },
      { id: 'vf-02', outcome: 'sql', plan: false, detail: expect.stringMatching(/^plan step \d+: /) },
      { id: 'vf-09', outcome: 'sql', plan: false, detail: expect.stringContaining('fields=[*]') },
      { id: 'vf-12', outcome: 'clarification', plan: null, detail: null },
    ]);
    expect(items.map((i) => [i.output_match, i.output_detail])).toEqual([
      ...Array.from({ length: 3 }, () => [
        null,
        "not measured: the fake Manager's runtime counts rows but computes no values",
      ]),
      [null, null],
    ]);
    expect(summary).toMatchObject({
      output_match: { count: 0, of: 0 },
      output_not_measured: 3,
      plan_match: { count: 1, of: 3 },
      valid_within_budget: { count: 3, of: 3 },
      clarification_when_expected: { count: 1, of: 1 },
      grounding_violations: 0,
      unsafe_statements: 0,
    });
    // The reference plans were temp pipelines, deleted afterwards.
    expect(manager.pipelines()).toEqual([]);
  });
});
