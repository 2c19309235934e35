import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ensureDemoDatabase } from '@nl2p/engine';
import { FakeManager } from '@nl2p/testing';
import { loadSqlSet, loadVelofluxSet } from './dataset';
import { evalGateway } from './gateway';
import { renderEvalMarkdown, type EvalReport } from './report';
import { ResultDb } from './results';
import { EngineOutputJudge, outputNotMeasured, type OutputJudge } from './output-match';
import { ReferencePlans } from './reference-plans';
import { runSqlEval, runVelofluxEval } from './runner';
import { checkLlmReachable, llmSettings, passThroughEnv, startEvalStack, type EvalStack } from './stack';

export interface EvalCliOptions {
  env: NodeJS.ProcessEnv;
  redisUrl: string;
  /** Built services to start when no gateway is given. */
  dist: string;
  outDir: string;
  log: (line: string) => void;
}

/**
 * The eval command: against `EVAL_GATEWAY_URL` (a running deployment and whatever LLM it uses), or
 * else against the six built services started here with the LLM of this environment. Writes the
 * JSON and Markdown reports and returns them.
 */
export async function runEvalCli(
  o: EvalCliOptions,
): Promise<{ report: EvalReport; markdown: string; json: string; md: string }> {
  const env = o.env;
  const started = new Date();
  const ids = env.EVAL_ITEMS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const sqlSet = loadSqlSet(env.EVAL_SET || undefined);
  const veloSet = loadVelofluxSet(env.EVAL_VELOFLUX_SET || undefined);
  const unknown = ids?.filter((id) => ![...sqlSet.items, ...veloSet.items].some((i) => i.id === id)) ?? [];
  if (unknown.length) throw new Error(`EVAL_ITEMS names unknown items: ${unknown.join(', ')}`);
  const concurrency = Number(env.EVAL_CONCURRENCY ?? 1);
  const turnTimeoutMs = Number(env.EVAL_TURN_TIMEOUT_MS ?? 300_000);
  // Without a real Manager the veloFlux set runs against the product's fake, which answers as the
  // recorded engine did (libs/testing); the report says which one judged it.
  let fake: FakeManager | null = null;
  let velofluxUrl = env.EVAL_VELOFLUX_URL || undefined;
  if (!velofluxUrl && !env.EVAL_GATEWAY_URL) {
    fake = new FakeManager();
    velofluxUrl = await fake.start();
  }
  const velofluxJudge = fake ? 'the fake Manager (libs/testing, replaying the recorded engine)' : velofluxUrl;

  let stack: EvalStack | null = null;
  let gatewayUrl = env.EVAL_GATEWAY_URL || '';
  let apiKey = env.EVAL_API_KEY || undefined;
  // Gold answers always run on a fresh local copy of the demo data (identical rows: the dataset is
  // generated deterministically), read-only.
  const goldPath = path.join(os.tmpdir(), `nl2p-eval-gold-${randomUUID().slice(0, 8)}.duckdb`);
  await ensureDemoDatabase(goldPath);
  const db = new ResultDb(goldPath);
  try {
    if (!gatewayUrl) {
      if (env.EVAL_SKIP_LLM_CHECK !== '1') await checkLlmReachable(env);
      o.log(`starting the six services from ${o.dist}`);
      stack = await startEvalStack({ redisUrl: o.redisUrl, dist: o.dist, velofluxUrl, env: passThroughEnv(env) });
      gatewayUrl = stack.gatewayUrl;
      apiKey = stack.apiKey;
    }
    const gateway = evalGateway(gatewayUrl, apiKey);
    const sqlItems = ids ? sqlSet.items.filter((i) => ids.includes(i.id)) : sqlSet.items;
    o.log(`DuckDB set: ${sqlItems.length} requests`);
    const sql = sqlItems.length
      ? { set: sqlSet.name, ...(await runSqlEval(sqlItems, db, { gateway, concurrency, turnTimeoutMs, log: o.log })) }
      : null;

    let veloflux: EvalReport['veloflux'];
    if (!velofluxUrl) {
      veloflux = {
        skipped: 'the gateway under test has no veloFlux Manager known to this runner (set EVAL_VELOFLUX_URL).',
      };
      o.log(`veloFlux set SKIPPED: ${veloflux.skipped}`);
    } else {
      const items = ids ? veloSet.items.filter((i) => ids.includes(i.id)) : veloSet.items;
      o.log(`veloFlux set: ${items.length} requests against ${velofluxJudge}`);
      veloflux = {
        set: veloSet.name,
        engine: velofluxJudge ?? '',
        ...(await runVelofluxEval(items, {
          gateway,
          concurrency,
          turnTimeoutMs,
          log: o.log,
          references: new ReferencePlans(velofluxUrl),
          outputs: outputJudge(env, velofluxUrl, fake !== null),
        })),
      };
    }

    const report: EvalReport = {
      started_at: started.toISOString(),
      duration_s: (Date.now() - started.getTime()) / 1000,
      gateway: env.EVAL_GATEWAY_URL ? gatewayUrl : `${gatewayUrl} (started by the runner)`,
      llm: env.EVAL_GATEWAY_URL ? {} : llmSettings(env),
      sql,
      veloflux,
    };
    const markdown = renderEvalMarkdown(report);
    mkdirSync(o.outDir, { recursive: true });
    const stamp = report.started_at.replace(/[:.]/g, '-');
    const json = path.join(o.outDir, `eval-${stamp}.json`);
    const md = path.join(o.outDir, `eval-${stamp}.md`);
    for (const [file, text] of [
      [json, `${JSON.stringify(report, null, 2)}\n`],
      [md, markdown],
      [path.join(o.outDir, 'eval-latest.json'), `${JSON.stringify(report, null, 2)}\n`],
      [path.join(o.outDir, 'eval-latest.md'), markdown],
    ] as const) {
      writeFileSync(file, text);
    }
    return { report, markdown, json, md };
  } finally {
    await db.close();
    rmSync(goldPath, { force: true });
    rmSync(`${goldPath}.wal`, { force: true });
    await stack?.stop();
    await fake?.stop();
  }
}

/**
 * Output match needs the engine's runtime and a broker both sides reach
 * (`VELOFLUX_DRY_RUN_BROKER_URL`, as the product's dry run); the fake Manager's runtime counts
 * rows but computes no values, so with it output match is not measured and the report says so.
 */
export function outputJudge(env: NodeJS.ProcessEnv, managerUrl: string, fake: boolean): OutputJudge {
  if (fake) return outputNotMeasured("the fake Manager's runtime counts rows but computes no values");
  const broker = env.VELOFLUX_DRY_RUN_BROKER_URL;
  if (!broker) return outputNotMeasured('no MQTT broker for the engine (set VELOFLUX_DRY_RUN_BROKER_URL)');
  return new EngineOutputJudge(managerUrl, broker, Number(env.EVAL_OUTPUT_LIMIT_MS ?? 150_000));
}
