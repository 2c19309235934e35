import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { ROOT, freePort } from '../support/processes';

jest.setTimeout(180_000);

/** True while something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(500) });
    return true;
  } catch {
    return false;
  }
}

/**
 * The README's start command, exactly as a person runs it (`npm start` = scripts/start.sh), on
 * its embedded defaults: it starts its own Redis, all six services and the DuckDB target with
 * the demo data. Only the LLM is the scripted one. Then one conversation, then a clean stop.
 */
describe('the start command', () => {
  const llm = new ScriptedLlm();
  let child: ChildProcess | undefined;
  let output = '';
  const duckdbPath = path.join(os.tmpdir(), `nl2p-start-${randomUUID().slice(0, 8)}.duckdb`);
  let redisPort = 0;

  afterAll(async () => {
    // On a failed run, stop it the way a person would (SIGTERM runs its cleanup: services and
    // the Redis it started); SIGKILL only if that hangs, which would orphan them.
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await llm.stop();
    rmSync(duckdbPath, { force: true });
    if (redisPort) rmSync(path.join(ROOT, 'data', `redis-${redisPort}`), { recursive: true, force: true });
  });

  it('starts everything, serves a conversation against DuckDB, and stops cleanly', async () => {
    const llmUrl = await llm.start();
    const [port, rport] = await Promise.all([freePort(), freePort()]);
    redisPort = rport;
    child = spawn('bash', ['scripts/start.sh'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/root',
        GATEWAY_PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${rport}`,
        DUCKDB_PATH: duckdbPath,
        LLM_BASE_URL: llmUrl,
        LLM_MODEL: 'scripted',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (output += b.toString()));

    const deadline = Date.now() + 150_000;
    while (!output.includes('nl2pipeline is running.') && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`start command exited early:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(output).toContain('nl2pipeline is running.');
    expect(output).toContain(`http://127.0.0.1:${port}`);
    expect(output).toMatch(/target:\s+duckdb/);
    expect(output).toMatch(/AUTH IS OFF/);

    new LlmScript(llm)
      .route({ intent: 'nl2sql', stream: 'sensor_readings', question: null })
      .draft(
        'SELECT device_id, max(temperature) AS max_temp FROM sensor_readings GROUP BY device_id ORDER BY device_id',
      );
    const api = new GatewayClient(`http://127.0.0.1:${port}`);
    const id = await api.createSession();
    const view = await api.turn(id, { text: 'hottest reading per device' });
    expect(view.target).toBe('duckdb');
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.preview.columns).toEqual(['device_id', 'max_temp']);
    expect(view.preview.rows).toHaveLength(5);

    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await listening(port)).toBe(false);
    // The Redis the command started is gone too.
    const redisUp = await new Promise<boolean>((resolve) => {
      const s = net.connect(rport, '127.0.0.1', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    expect(redisUp).toBe(false);
  });
});
