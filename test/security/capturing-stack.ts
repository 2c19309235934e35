import { ConsoleLogger, type INestApplication, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { rmSync } from 'node:fs';
import { ensureDemoDatabase } from '@nl2p/engine';
import { loadConfig } from '@nl2p/config';
import { createGatewayApp } from '../../apps/gateway/src/create-app';
import { ExplainerModule } from '../../apps/explainer/src/explainer.module';
import { RouterLlmModule } from '../../apps/router-llm/src/router-llm.module';
import { SqlDrafterModule } from '../../apps/sql-drafter/src/sql-drafter.module';
import { ValidatorModule } from '../../apps/validator/src/validator.module';
import { JanitorModule } from '../../apps/janitor/src/janitor.module';
import { deletePrefix, testEnv, type Stack, type StackOptions } from '../support/stack';

/**
 * A logger that keeps every line any service writes, at every level (debug and verbose
 * included), so a test can search all of it; only errors are printed.
 */
export class CapturingLogger extends ConsoleLogger {
  readonly lines: string[] = [];

  constructor() {
    super('hostile', { logLevels: ['fatal', 'error'] });
  }

  private keep(level: string, message: unknown, rest: unknown[]): void {
    this.lines.push(`${level} ${safeJson([message, ...rest])}`);
  }

  override log(message: unknown, ...rest: unknown[]): void {
    this.keep('log', message, rest);
  }
  override warn(message: unknown, ...rest: unknown[]): void {
    this.keep('warn', message, rest);
  }
  override debug(message: unknown, ...rest: unknown[]): void {
    this.keep('debug', message, rest);
  }
  override verbose(message: unknown, ...rest: unknown[]): void {
    this.keep('verbose', message, rest);
  }
  override error(message: unknown, ...rest: unknown[]): void {
    this.keep('error', message, rest);
    super.error(message, ...(rest as [string]));
  }
  override fatal(message: unknown, ...rest: unknown[]): void {
    this.keep('fatal', message, rest);
    super.fatal(message, ...(rest as [string]));
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) =>
      x instanceof Error ? { name: x.name, message: x.message, stack: x.stack, cause: x.cause } : x,
    );
  } catch {
    return String(v);
  }
}

/** {@link startStack} of test/support/stack.ts, with every log line of every service captured. */
export async function startCapturingStack(opts: StackOptions, logger: CapturingLogger): Promise<Stack> {
  const config = loadConfig(testEnv({ ...opts, env: { LOG_LEVEL: 'verbose', ...opts.env } }));
  if (opts.duckdb) await ensureDemoDatabase(config.duckdb.path);
  const workers: INestApplicationContext[] = [];
  for (const mod of [ValidatorModule, RouterLlmModule, SqlDrafterModule, ExplainerModule, JanitorModule]) {
    const ctx = await NestFactory.createApplicationContext(mod.forRoot(config), { logger });
    await ctx.init();
    workers.push(ctx);
  }
  const gateway: INestApplication = await createGatewayApp(config, logger);
  await gateway.listen(0, '127.0.0.1');
  const gatewayUrl = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    config,
    gatewayUrl,
    async close() {
      await gateway.close();
      for (const w of workers) await w.close();
      await deletePrefix(config.redis.url, config.redis.prefix);
      rmSync(config.duckdb.path, { force: true });
      rmSync(`${config.duckdb.path}.wal`, { force: true });
    },
  };
}
