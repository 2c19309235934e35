import 'reflect-metadata';
import { Logger, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig, type AppConfig } from '@nl2p/config';
import { setServiceLabel } from '@nl2p/metrics';
import { exitAfterShutdownGrace, untilRedisAnswers } from './redis-at-boot';

/**
 * Boots a worker app: validates the environment, starts the module (with its probe and metrics
 * port when `METRICS_PORT` is set, see {@link WorkerLifecycle}), and stops cleanly on
 * SIGTERM/SIGINT: in-flight jobs finish within `SHUTDOWN_GRACE_MS` or are handed back to the queue.
 * It boots once Redis answers (see {@link untilRedisAnswers}); a signal before that stops it.
 */
export async function runWorkerApp(service: string, moduleFor: (config: AppConfig) => DynamicModule): Promise<void> {
  try {
    const config = loadConfig(process.env);
    setServiceLabel(service);
    const logger = createLogger(config, service);
    if (!(await untilRedisAnswers(config, logger))) process.exit(0);
    const app = await NestFactory.createApplicationContext(moduleFor(config), { logger });
    app.enableShutdownHooks();
    exitAfterShutdownGrace(config, logger);
    new Logger(service).log(`worker started (concurrency ${config.worker.concurrency})`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
