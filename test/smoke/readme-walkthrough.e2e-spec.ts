import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '@nl2p/testing';
import { StartCommandRun } from '../support/start-command';
import { firstMissing, stepOutputs, walkthroughScript, walkthroughSteps } from '../support/readme-walkthrough';

jest.setTimeout(300_000);

/**
 * The README's walk-through, read from README.md itself and run as a person would paste it
 * (bash, curl, jq) against the product on `npm start`'s defaults: DuckDB with the demo data, the
 * embedded model, nothing configured. Every `# →` line must be what its command printed, so the
 * README cannot drift from what the product does.
 */
describe("the README's walk-through", () => {
  let run: StartCommandRun | undefined;

  afterAll(async () => {
    await run?.cleanup();
  });

  it('prints what the README says, command by command', async () => {
    const steps = walkthroughSteps(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    run = await StartCommandRun.start({ LOCAL_THREADS: '1' }, 150_000, { built: true });
    expect(run.output).toContain('nl2pipeline is running.');

    const script = walkthroughScript(steps, run.url);
    const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 240_000 });
    expect(result.stderr).toBe('');
    const outputs = stepOutputs(result.stdout);
    expect(outputs).toHaveLength(steps.length);
    const wrong = steps
      .map((step, i) => ({
        command: step.command,
        missing: firstMissing(outputs[i], step.expected),
        printed: outputs[i],
      }))
      .filter((s) => s.missing !== null);
    expect(wrong).toEqual([]);

    expect(await run.stop()).toEqual({ code: 0, gatewayUp: false, redisUp: false });
  });
});
