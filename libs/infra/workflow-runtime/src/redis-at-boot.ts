import type { LoggerService } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '@nl2p/config';

/** The first wait between attempts; it doubles up to {@link MAX_DELAY_MS}. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
/** Closing after the grace: Redis connections and telemetry, not jobs (those had the grace). */
const CLOSE_MARGIN_MS = 2_000;

/** The Redis URL as it may be logged: without its password. */
export function redactedRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/** One PING on a connection of its own that does not retry: the boot loop below retries. */
async function pingOnce(url: string): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
  });
  // The caller logs the failure once; without a listener ioredis also prints every error as
  // "Unhandled error event". The socket's error says why ("connect ECONNREFUSED …"), where the
  // connect's rejection only says "Connection is closed."
  let cause: Error | undefined;
  probe.on('error', (err: Error) => (cause ??= err));
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    throw cause ?? err;
  } finally {
    probe.disconnect();
  }
}

/**
 * Waits until Redis answers before a service boots, so a service started while Redis is down
 * logs one line per attempt (with backoff) instead of every client's connection errors in a loop,
 * and a SIGTERM or SIGINT while it waits stops it at once. Returns false when a signal came first:
 * the caller exits. The signal listeners are removed once Redis answers (the app installs its own).
 */
export async function untilRedisAnswers(config: AppConfig, logger: LoggerService): Promise<boolean> {
  const where = redactedRedisUrl(config.redis.url);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    logger.warn(`${signal} while waiting for Redis at ${where}: stopping`);
    stop.abort();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await pingOnce(config.redis.url);
        if (attempt > 1) logger.log(`Redis at ${where} answered (attempt ${attempt})`);
        return true;
      } catch (err) {
        if (stop.signal.aborted) return false;
        const delay = Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS);
        const why = err instanceof Error ? err.message : String(err);
        logger.warn(`Redis at ${where} is unreachable (${why}); attempt ${attempt}, next in ${delay} ms`);
        const waited = await sleep(delay, stop.signal);
        if (!waited) return false;
      }
    }
  } finally {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A deadline for a booted app's stop: on SIGTERM or SIGINT, the app's own shutdown (jobs get
 * `SHUTDOWN_GRACE_MS`) has the grace plus a little to close; past it the process exits anyway,
 * because closing hangs when Redis went away meanwhile (a quit waits for a reply that never comes).
 */
export function exitAfterShutdownGrace(config: AppConfig, logger: LoggerService): void {
  const arm = (signal: NodeJS.Signals) => {
    const ms = config.worker.shutdownGraceMs + CLOSE_MARGIN_MS;
    setTimeout(() => {
      logger.error(`still stopping ${ms} ms after ${signal} (is Redis reachable?): exiting`);
      process.exit(1);
    }, ms).unref();
  };
  process.once('SIGTERM', arm);
  process.once('SIGINT', arm);
}
