import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '@nl2p/testing';

/** The `nl2pipeline` command as a person runs it: the bin wrapper over the built CLI. */
export const CLI_BIN = path.join(ROOT, 'apps/cli/bin/nl2pipeline');

/** Keys as a terminal sends them. */
export const KEY = { enter: '\r', up: '\x1b[A', down: '\x1b[B', ctrlC: '\x03', ctrlD: '\x04' } as const;

/** Removes terminal control sequences (colours, cursor moves) and carriage returns. */
export function plain(text: string): string {
  return text
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()][A-Za-z0-9]/g, '')
    .replace(/\r/g, '');
}

/** The environment a CLI child gets: only what it needs, plus the test's additions. */
export function cliEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', ...extra };
}

/**
 * A program in a real pseudo-terminal, through util-linux `script`: it sees a TTY on stdin,
 * stdout and stderr (raw mode, arrow keys, Ctrl-C as a key), and we see everything it draws.
 */
export class Terminal {
  private readonly child: ChildProcess;
  private raw = '';
  readonly exited: Promise<number | null>;

  constructor(command: string, env: Record<string, string>) {
    // A fixed window size: readline lays out its line from the terminal's columns.
    const inner = `stty cols 160 rows 50; exec ${command}`;
    this.child = spawn('script', ['-qfec', inner, '/dev/null'], {
      env: { TERM: 'xterm-256color', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => {
      this.raw += b.toString('utf8');
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Everything drawn so far, control sequences included. */
  get rawOutput(): string {
    return this.raw;
  }

  /** Everything drawn so far as plain text. */
  get text(): string {
    return plain(this.raw);
  }

  /** Types keys (a line ends with KEY.enter). */
  send(keys: string): void {
    this.child.stdin?.write(keys);
  }

  line(text: string): void {
    this.send(`${text}${KEY.enter}`);
  }

  /**
   * Resolves once `pattern` shows up after plain-text offset `from`, with the offset just past
   * the match; fails with the screen so far when it does not come in time.
   */
  async waitFor(pattern: string | RegExp, from = 0, timeoutMs = 20_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.text;
      const rest = text.slice(from);
      if (typeof pattern === 'string') {
        const at = rest.indexOf(pattern);
        if (at >= 0) return from + at + pattern.length;
      } else {
        const m = pattern.exec(rest);
        if (m) return from + m.index + m[0].length;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${String(pattern)}; the terminal shows:\n${text.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Kills the program if it is still running (a failed test must not leave it behind). */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with pipes (no terminal), as a script would, `input` on its stdin; resolves when it exits. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI_BIN, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nl2pipeline ${args.join(' ')} ran past ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
