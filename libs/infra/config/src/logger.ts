import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from './config';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Structured JSON logs (one object per line) by default; every line names its service. */
export function createLogger(config: AppConfig, service: string): ConsoleLogger {
  const upTo = ORDER.indexOf(config.log.level);
  return new ConsoleLogger(service, {
    json: config.log.json,
    logLevels: ORDER.slice(0, upTo + 1),
    colors: !config.log.json && process.stdout.isTTY,
  });
}
