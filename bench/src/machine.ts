import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Redis } from 'ioredis';

/** What the figures were measured on; printed first, because every figure depends on it. */
export interface MachineFacts {
  cores: number;
  cpu_model: string;
  memory_total_mb: number;
  memory_free_mb: number;
  load_avg_1m: number;
  node: string;
  platform: string;
  redis: string;
  git_commit: string;
  measured_at: string;
}

export async function machineFacts(redis: Redis): Promise<MachineFacts> {
  const info = await redis.info('server');
  const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  return {
    cores: os.availableParallelism(),
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    memory_total_mb: Math.round(os.totalmem() / 2 ** 20),
    memory_free_mb: Math.round(os.freemem() / 2 ** 20),
    load_avg_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    redis: redisVersion,
    git_commit: gitCommit(),
    measured_at: new Date().toISOString(),
  };
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}
