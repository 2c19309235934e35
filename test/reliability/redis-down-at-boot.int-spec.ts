import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { deleteKeysWithPrefix, freePort, startLocalRedis, type LocalRedis } from '@nl2p/launcher';

/**
 * A service started while its Redis is down, as its own process from its entry point: it waits
 * with backoff, one log line per attempt (not ioredis's "Unhandled error event" in a loop), boots
 * once Redis answers, and stops within the shutdown grace on SIGTERM, before or after booting.
 */
const ROOT = path.resolve(__dirname, '../..');
const GRACE_MS = 3_000;

class ServiceRun {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private readonly child: ChildProcess;

  constructor(service: 'validator' | 'gateway', redisPort: number, prefix: string) {
    this.child = spawn(
      process.execPath,
      ['-r', path.join(ROOT, 'test/support/register-ts.js'), path.join(ROOT, `apps/${service}/src/main.ts`)],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          REDIS_PREFIX: prefix,
          TARGET: 'veloflux',
          VELOFLUX_URL: 'http://127.0.0.1:9',
          LLM_BASE_URL: 'http://127.0.0.1:9',
          AUTH_DISABLED: 'true',
          GATEWAY_PORT: '0',
          SHUTDOWN_GRACE_MS: String(GRACE_MS),
          OTEL_SDK_DISABLED: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
  }

  /** Resolves when the output matches `re`; fails after `ms` with what was printed. */
  async until(re: RegExp, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!re.test(this.output)) {
      if (Date.now() > deadline) throw new Error(`no ${re} within ${ms} ms; output:\n${this.output}`);
      if (this.child.exitCode !== null)
        throw new Error(`exited (${this.child.exitCode}) before ${re}:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Sends SIGTERM and returns how long the process took to exit and how it ended: a booted Nest
   * app closes, then re-raises the signal (so it ends by SIGTERM, not with a code).
   */
  async terminate(): Promise<{ ended: string; tookMs: number }> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return { ended: 'before', tookMs: 0 };
    const sent = Date.now();
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), GRACE_MS * 3)));
    const exit = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (!exit) {
      this.child.kill('SIGKILL');
      return { ended: 'still running', tookMs: Infinity };
    }
    return { ended: exit.signal ?? `code ${exit.code}`, tookMs: exit.at - sent };
  }

  /** The output's lines that are not the service's own JSON log lines. */
  strayLines(): string[] {
    return this.output.split('\n').filter((line) => line.trim() && !line.startsWith('{"level":'));
  }

  attemptLines(): string[] {
    return this.output.split('\n').filter((line) => /is unreachable/.test(line));
  }
}

describe('a service whose Redis is down at boot', () => {
  const prefix = `t${randomUUID().slice(0, 8)}`;
  let redis: LocalRedis | undefined;
  const runs: ServiceRun[] = [];

  afterAll(async () => {
    if (redis) {
      await deleteKeysWithPrefix(redis.url, prefix);
      await redis.stop();
    }
  });
  afterEach(async () => {
    // A failed assertion must not leave a process behind.
    await Promise.all(runs.splice(0).map((r) => r.terminate()));
  });

  it.each(['validator', 'gateway'] as const)(
    '%s: one line per attempt with backoff, and SIGTERM stops it within the grace',
    async (service) => {
      const closedPort = await freePort();
      const run = new ServiceRun(service, closedPort, prefix);
      runs.push(run);
      await run.until(/attempt 3, next in/);

      const { ended, tookMs } = await run.terminate();
      expect(tookMs).toBeLessThan(GRACE_MS);
      expect(ended).toBe('code 0');
      const attempts = run.attemptLines().map((l) => JSON.parse(l) as { level: string; message: string });
      expect(attempts.slice(0, 3).map((a) => a.message)).toEqual(
        [1, 2, 3].map(
          (n) =>
            `Redis at redis://127.0.0.1:${closedPort} is unreachable (connect ECONNREFUSED 127.0.0.1:${closedPort}); ` +
            `attempt ${n}, next in ${500 * 2 ** (n - 1)} ms`,
        ),
      );
      expect(attempts.every((a) => a.level === 'warn')).toBe(true);
      expect(run.output).toContain('SIGTERM while waiting for Redis');
      expect(run.output).not.toContain('Unhandled error event');
      expect(run.strayLines()).toEqual([]);
    },
    90_000,
  );

  it('boots once Redis comes up, then still stops within the grace on SIGTERM', async () => {
    const port = await freePort();
    const run = new ServiceRun('validator', port, prefix);
    runs.push(run);
    await run.until(/attempt 1, next in/);
    redis = await startLocalRedis(port);
    await run.until(/worker started/);
    expect(run.output).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ answered \(attempt \d+\)/);

    const { ended, tookMs } = await run.terminate();
    expect(tookMs).toBeLessThan(GRACE_MS);
    expect(ended).toBe('SIGTERM');
    expect(run.strayLines()).toEqual([]);
  }, 90_000);

  it('a booted service whose Redis went away still exits shortly after the grace on SIGTERM', async () => {
    const port = await freePort();
    const gone = await startLocalRedis(port);
    const run = new ServiceRun('validator', port, prefix);
    runs.push(run);
    await run.until(/worker started/);
    await deleteKeysWithPrefix(gone.url, prefix);
    await gone.stop();

    const { ended, tookMs } = await run.terminate();
    // The grace, plus the close margin of exitAfterShutdownGrace (2 s), plus a little.
    expect(tookMs).toBeLessThan(GRACE_MS + 2_500);
    expect(ended).not.toBe('still running');
  }, 90_000);
});
