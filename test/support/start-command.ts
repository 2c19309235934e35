import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ROOT, freePort, freePortBlock } from '@nl2p/testing';

/** True while something accepts connections on the gateway port. */
async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(500) });
    return true;
  } catch {
    return false;
  }
}

async function redisUp(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/**
 * The README's start command (`npm start` = scripts/start.sh) as a person runs it: its own Redis
 * on a free port, a fresh DuckDB file, only PATH and HOME from this environment plus `env`.
 */
export class StartCommandRun {
  output = '';
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly redisPort: number,
    readonly duckdbPath: string,
  ) {}

  /**
   * `built`: run the launcher `npm start` execs once it has bootstrapped and built
   * (`dist/apps/start`), for a test tier that runs after `npm test`'s build; start.sh otherwise.
   */
  static async start(
    env: Record<string, string>,
    timeoutMs = 150_000,
    { built = false }: { built?: boolean } = {},
  ): Promise<StartCommandRun> {
    // The gateway's port and, after it, one metrics port per worker (apps/start/src/metrics-ports.ts).
    const [port, redisPort] = await Promise.all([freePortBlock(6), freePort()]);
    const run = new StartCommandRun(
      port,
      redisPort,
      path.join(os.tmpdir(), `nl2p-start-${randomUUID().slice(0, 8)}.duckdb`),
    );
    // start.sh turns authentication off, loudly, when no keys are configured; so does this.
    const [command, args, defaults] = built
      ? ['node', ['dist/apps/start/src/main.js'], { AUTH_DISABLED: 'true' }]
      : ['bash', ['scripts/start.sh'], {}];
    const child = spawn(command, args, {
      cwd: ROOT,
      env: {
        ...defaults,
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/root',
        GATEWAY_PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        DUCKDB_PATH: run.duckdbPath,
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    run.child = child;
    child.stdout?.on('data', (b: Buffer) => (run.output += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (run.output += b.toString()));

    const deadline = Date.now() + timeoutMs;
    while (!run.output.includes('nl2pipeline is running.') && Date.now() < deadline) {
      if (child.exitCode !== null) {
        await run.cleanup();
        throw new Error(`start command exited early:\n${run.output}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return run;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops it with SIGTERM, as a person would; reports its exit code and what is still up. */
  async stop(): Promise<{ code: number | null; gatewayUp: boolean; redisUp: boolean }> {
    const child = this.child;
    if (!child) throw new Error('the start command is not running');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    const code = await exited;
    return { code, gatewayUp: await listening(this.port), redisUp: await redisUp(this.redisPort) };
  }

  /**
   * After a failed run: SIGTERM runs its cleanup (services and the Redis it started); SIGKILL only
   * if that hangs, which would orphan them. Then removes the files it made.
   */
  async cleanup(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.duckdbPath, { force: true });
    rmSync(`${this.duckdbPath}.wal`, { force: true });
    rmSync(path.join(ROOT, 'data', `redis-${this.redisPort}`), { recursive: true, force: true });
  }
}
