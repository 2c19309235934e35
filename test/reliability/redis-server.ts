import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A private redis-server with AOF persistence (`appendonly yes`, fsync every second, as in
 * docker-compose.yml), so it can be restarted mid-test and keep its data. Never the shared test
 * Redis: restarting that would disturb other test files.
 */
export class RedisServer {
  private child: ChildProcess | null = null;
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'nl2p-chaos-redis-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir];
    args.push('--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '');
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('error', (err) =>
        reject(new Error(`redis-server could not start (is it installed?): ${err.message}`)),
      );
      void waitForPort(this.port, 10_000).then(resolve, reject);
    });
  }

  /** Shuts down the way an operator or orchestrator would (SIGTERM: the AOF is flushed), then starts again. */
  async restart(downMs = 300): Promise<void> {
    await this.stop();
    await new Promise((r) => setTimeout(r, downMs));
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`);
}
