import 'reflect-metadata';
import { Logger, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfig, type AppConfig } from '@nl2p/config';

/**
 * Boots a worker app (no HTTP): validates the environment, starts the module, and stops
 * cleanly on SIGTERM/SIGINT so in-flight jobs finish or are handed back to the queue.
 */
export async function runWorkerApp(service: string, moduleFor: (config: AppConfig) => DynamicModule): Promise<void> {
  try {
    const config = loadConfig(process.env);
    const app = await NestFactory.createApplicationContext(moduleFor(config), {
      logger: createLogger(config, service),
    });
    app.enableShutdownHooks();
    new Logger(service).log(`worker started (concurrency ${config.worker.concurrency})`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
