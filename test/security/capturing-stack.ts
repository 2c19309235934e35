import { ConsoleLogger } from '@nestjs/common';
import { startStack, type Stack, type StackOptions } from '../support/stack';

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

/** {@link startStack} with every log line of every service captured (verbose logging on). */
export function startCapturingStack(opts: StackOptions, logger: CapturingLogger): Promise<Stack> {
  return startStack({ ...opts, env: { LOG_LEVEL: 'verbose', ...opts.env } }, logger);
}
