import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';
import { redisAnswers, startLocalRedis } from './redis';

// The launcher's own Redis (npm start, the fuzz): real redis-server processes.
describe('startLocalRedis', () => {
  it('starts a throw-away Redis that answers, and stops it', async () => {
    const port = await freePort();
    expect(await redisAnswers('127.0.0.1', port)).toBe(false);
    const redis = await startLocalRedis(port);
    expect(redis.url).toBe(`redis://127.0.0.1:${port}`);
    expect(await redisAnswers('127.0.0.1', port)).toBe(true);
    await redis.stop();
    expect(await redisAnswers('127.0.0.1', port)).toBe(false);
  });

  it('keeps an append-only file in its directory when given one', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nl2p-redis-'));
    try {
      const redis = await startLocalRedis(await freePort(), { dir });
      await redis.stop();
      expect(readdirSync(dir).some((f) => f.startsWith('appendonly'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says why when the port is taken: by a Redis, or by something else', async () => {
    const port = await freePort();
    const first = await startLocalRedis(port);
    try {
      await expect(startLocalRedis(port)).rejects.toThrow(`a Redis already answers on 127.0.0.1:${port}`);
    } finally {
      await first.stop();
    }
    const other = net.createServer().listen(port, '127.0.0.1');
    await new Promise((r) => other.once('listening', r));
    try {
      await expect(startLocalRedis(port)).rejects.toThrow(/redis-server exited with 1 at start/);
    } finally {
      other.close();
    }
  });
});
