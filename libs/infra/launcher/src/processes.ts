import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, type WriteStream } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The repository root: the nearest folder above this file whose package.json is the product's. */
export const ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'nl2pipeline'
    ) {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no nl2pipeline package.json above ${from}`);
  }
}

/** The six services, each its own process; the gateway last, so it starts on ready workers. */
export const SERVICES = ['validator', 'router-llm', 'sql-drafter', 'explainer', 'janitor', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function portBindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive free ports, for a launcher that numbers its services' ports
 * from one base (the gateway, then each worker's metrics). Taken below Linux's ephemeral range
 * (32768 and up): a port there that is free now can be handed to any outgoing connection a
 * moment later, which is how a worker once found its metrics port taken.
 */
export async function freePortBlock(
  count: number,
  pickBase = (): number => 20_000 + Math.floor(Math.random() * (12_000 - count)),
  attempts = 50,
): Promise<number> {
  for (let i = 0; i < attempts; i++) {
    const base = pickBase();
    const free = await Promise.all(Array.from({ length: count }, (_, k) => portBindable(base + k)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports found between 20000 and 32000`);
}

/** One built service running as its own OS process, as in production. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  output = '';

  private log: WriteStream | null = null;

  constructor(
    readonly name: ServiceName,
    private readonly env: Record<string, string>,
    /** The build to run: `dist/` by default; the bench and evals build a private copy. */
    private readonly dist = path.join(ROOT, 'dist'),
    /** Also append everything the service prints to this file. */
    private readonly logFile?: string,
  ) {}

  start(): void {
    const main = path.join(this.dist, 'apps', this.name, 'src/main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (\`npm run build\`)`);
    this.child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (this.logFile) this.log = createWriteStream(this.logFile, { flags: 'a' });
    const keep = (b: Buffer) => {
      this.output = (this.output + b.toString()).slice(-20_000);
      this.log?.write(b);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.child.once('exit', () => this.log?.end());
  }

  /** Resolves when the process exits, with its exit code (null when a signal ended it). */
  exited(): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve(child?.exitCode ?? null);
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the process (SIGTERM, then SIGKILL after `graceMs`) and resolves once it exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

export async function waitForHealth(url: string, timeoutMs: number, procs: ServiceProcess[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = procs.find((p) => !p.running);
    if (dead) throw new Error(`${dead.name} exited during start:\n${dead.output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gateway at ${url} not healthy after ${timeoutMs} ms`);
}
