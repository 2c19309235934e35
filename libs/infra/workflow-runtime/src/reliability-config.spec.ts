import { loadConfig } from '@nl2p/config';
import { workerTiming } from './workflow-worker';

describe('reliability settings', () => {
  it('have defaults: sweep each minute, temp pipelines kept 15 min at most, turns stopped after 10 min', () => {
    const c = loadConfig({});
    expect(c.janitor).toEqual({
      sweepEveryMs: 60_000,
      tmpMaxAgeMs: 900_000,
      // Another deployment's temp pipelines: only a day after they were first seen.
      foreignTmpMaxAgeMs: 86_400_000,
      turnDeadlineMs: 600_000,
    });
    expect(c.worker.backoffFactor).toBe(1);
  });

  it('are validated with the rest of the environment', () => {
    const bad = {
      JANITOR_SWEEP_EVERY_MS: '10',
      TURN_DEADLINE_MS: 'soon',
      JANITOR_TMP_MAX_AGE_MS: '-1',
      JOB_BACKOFF_FACTOR: 'x',
    };
    expect(() => loadConfig(bad)).toThrow();
    let message = '';
    try {
      loadConfig(bad);
    } catch (err) {
      message = (err as Error).message;
    }
    for (const key of Object.keys(bad)) expect(message).toContain(key);
    expect(loadConfig({ JOB_BACKOFF_FACTOR: '0.1', TURN_DEADLINE_MS: '30000' })).toMatchObject({
      worker: { backoffFactor: 0.1 },
      janitor: { turnDeadlineMs: 30_000 },
    });
  });

  it('give workers a job lock above the slowest single LLM call', () => {
    expect(workerTiming(loadConfig({}))).toEqual({ lockDuration: 65_000, stalledInterval: 15_000, maxStalledCount: 2 });
    const fast = workerTiming(loadConfig({ LLM_TIMEOUT_MS: '2000' }));
    expect(fast.lockDuration).toBe(7_000);
    expect(fast.stalledInterval).toBe(1_750);
  });
});
