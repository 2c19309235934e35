import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoDatabase } from '@nl2p/engine';
import { loadConfig, type AppConfig } from '@nl2p/config';
import { WorkerLifecycle } from '@nl2p/workflow-runtime';
import { deleteKeysWithPrefix } from '@nl2p/launcher';
import { createGatewayApp } from '../../apps/gateway/src/create-app';
import { ExplainerModule } from '../../apps/explainer/src/explainer.module';
import { RouterLlmModule } from '../../apps/router-llm/src/router-llm.module';
import { SqlDrafterModule } from '../../apps/sql-drafter/src/sql-drafter.module';
import { ValidatorModule } from '../../apps/validator/src/validator.module';
import { JanitorModule } from '../../apps/janitor/src/janitor.module';
import { ConsoleLogger } from '@nestjs/common';

export interface StackOptions {
  llmUrl: string;
  /** The veloFlux Manager; without it veloFlux is offered only as the default target (`TARGET`). */
  managerUrl?: string;
  /** Create the DuckDB demo database for this stack (SQL-target tests). */
  duckdb?: boolean;
  /** Extra environment keys (strings, as a deployment would set them). */
  env?: Record<string, string>;
}

export interface Stack {
  config: AppConfig;
  gatewayUrl: string;
  /** Each worker's probe and metrics server (`METRICS_PORT` set, e.g. `'0'` for a free port). */
  probeUrls?: Record<string, string>;
  close(): Promise<void>;
}

/** The environment every test stack shares: fast retries, quiet logs, a private Redis prefix. */
export function testEnv(opts: StackOptions): Record<string, string> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) throw new Error('REDIS_URL is not set: run tests through jest (its global setup starts Redis)');
  return {
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `t${randomUUID().slice(0, 8)}`,
    TARGET: 'veloflux',
    AUTH_DISABLED: 'true',
    DUCKDB_PATH: path.join(os.tmpdir(), `nl2p-test-${randomUUID().slice(0, 8)}.duckdb`),
    ...(opts.managerUrl ? { VELOFLUX_URL: opts.managerUrl } : {}),
    LLM_BASE_URL: opts.llmUrl,
    LLM_API_KEY: 'test-key',
    // The workflow scenarios script the router and free-SQL drafts; plan mode and linking have
    // their own scenarios (test/integration/plan-mode.int-spec.ts), which override these.
    DRAFT_MODE: 'sql',
    LINKING: 'false',
    LLM_MODEL_ROUTER: 'scripted-router',
    LLM_MODEL_PREVIEW: 'scripted-preview',
    LLM_MODEL_REASONING: 'scripted-reasoning',
    LLM_MAX_RETRIES: '2',
    LLM_TIMEOUT_MS: '5000',
    ENGINE_BACKOFF_MS: '10',
    // Scenarios judge create and explain; the dry run's own scenarios turn it on with a broker.
    VELOFLUX_DRY_RUN: 'false',
    ENGINE_TIMEOUT_MS: '3000',
    GATEWAY_PORT: '0',
    LOG_LEVEL: 'warn',
    LOG_JSON: 'false',
    ...opts.env,
  };
}

/**
 * All six services' real modules in this process: the gateway over real HTTP, the workers on
 * real BullMQ queues in real Redis. Only the LLM and the Manager are fakes (at their HTTP edge).
 */
export async function startStack(
  opts: StackOptions,
  logger: ConsoleLogger = new ConsoleLogger('test', { logLevels: ['error', 'warn'] }),
): Promise<Stack> {
  const config = loadConfig(testEnv(opts));
  if (opts.duckdb) await ensureDemoDatabase(config.duckdb.path);
  const workers: INestApplicationContext[] = [];
  const probeUrls: Record<string, string> = {};
  const services = {
    validator: ValidatorModule,
    'router-llm': RouterLlmModule,
    'sql-drafter': SqlDrafterModule,
    explainer: ExplainerModule,
    janitor: JanitorModule,
  };
  for (const [service, mod] of Object.entries(services)) {
    const ctx = await NestFactory.createApplicationContext(mod.forRoot(config), { logger });
    await ctx.init();
    workers.push(ctx);
    const probe = ctx.get(WorkerLifecycle).probeAddress();
    if (probe) probeUrls[service] = `http://127.0.0.1:${probe.port}`;
  }
  const gateway: INestApplication = await createGatewayApp(config, logger);
  await gateway.listen(0, '127.0.0.1');
  const gatewayUrl = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    config,
    gatewayUrl,
    probeUrls,
    async close() {
      await gateway.close();
      for (const w of workers) await w.close();
      await deletePrefix(config.redis.url, config.redis.prefix);
      rmSync(config.duckdb.path, { force: true });
      rmSync(`${config.duckdb.path}.wal`, { force: true });
    },
  };
}

/** Removes every key a test stack wrote, so nothing outlives the test file. */
export function deletePrefix(url: string, prefix: string): Promise<void> {
  return deleteKeysWithPrefix(url, prefix);
}
