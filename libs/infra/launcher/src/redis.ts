import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import { Redis } from 'ioredis';

/** A Redis this process started; `stop` ends it (SIGTERM: an append-only file is flushed first). */
export interface LocalRedis {
  url: string;
  stop(): Promise<void>;
}

/** True when something answers PING at host:port within a second. */
export function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (b) => done(b.toString().startsWith('+PONG')));
  });
}

/**
 * Starts Debian's `redis-server` on 127.0.0.1:port: with `dir`, append-only persistence there
 * (sessions survive a restart), without, nothing written to disk (throw-away runs).
 */
export async function startLocalRedis(
  port: number,
  options: { dir?: string; logFile?: string } = {},
): Promise<LocalRedis> {
  // Its PING would pass for ours while our redis-server fails to bind.
  if (await redisAnswers('127.0.0.1', port)) throw new Error(`a Redis already answers on 127.0.0.1:${port}`);
  const args = ['--port', String(port), '--bind', '127.0.0.1'];
  if (options.dir) {
    mkdirSync(options.dir, { recursive: true });
    args.push('--dir', options.dir, '--appendonly', 'yes');
  } else {
    args.push('--save', '', '--appendonly', 'no');
  }
  if (options.logFile) args.push('--logfile', options.logFile);
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`redis-server could not start: ${err.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} at start`)));
  });
  const up = (async () => {
    for (let i = 0; i < 100; i++) {
      if (await redisAnswers('127.0.0.1', port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  })();
  await Promise.race([up, failed]);
  failed.catch(() => undefined);
  return {
    url: `redis://127.0.0.1:${port}`,
    // SIGTERM flushes the append-only file; a Redis that cannot save (its directory gone) refuses
    // to exit, so it is killed after a while rather than left behind.
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.removeAllListeners('exit');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Removes every key under `prefix` (a throw-away stack's, when it stops), so nothing outlives the
 * run. Takes a connection, or a URL to open one for just this.
 */
export async function deleteKeysWithPrefix(redis: Redis | string, prefix: string): Promise<void> {
  const client = typeof redis === 'string' ? new Redis(redis) : redis;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    if (typeof redis === 'string') client.disconnect();
  }
}
