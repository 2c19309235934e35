import { ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { startStack, type Stack } from '../support/stack';

/**
 * `GET /v1/targets` lists only the targets this deployment has: on `npm start`'s defaults
 * (`TARGET=duckdb`, no `VELOFLUX_URL`) that is DuckDB alone, and choosing veloFlux is a 400 naming
 * the setting, not a connection refused at the first turn. With a Manager configured veloFlux is
 * listed after the default. (The default target veloFlux with its Manager is covered in
 * catalog-sessions.int-spec.ts.)
 */
describe('the targets list', () => {
  const llm = new ScriptedLlm();
  let llmUrl: string;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    llmUrl = await llm.start();
  });
  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.close()));
    await llm.stop();
  });

  async function gateway(env: Record<string, string>, managerUrl?: string): Promise<GatewayClient> {
    const stack = await startStack({ llmUrl, managerUrl, duckdb: true, env });
    stacks.push(stack);
    return new GatewayClient(stack.gatewayUrl);
  }

  it("npm start's defaults: DuckDB alone; veloFlux is refused naming VELOFLUX_URL", async () => {
    const api = await gateway({ TARGET: 'duckdb' });
    const res = await api.request('GET', '/v1/targets');
    expect(res.status).toBe(200);
    expect(res.body.default).toBe('duckdb');
    expect(res.body.targets.map((t: { kind: string }) => t.kind)).toEqual(['duckdb']);
    expect(res.body.targets[0]).toMatchObject({ reachable: true, problem: null });

    const chosen = await api.request('POST', '/v1/sessions', { target: 'veloflux' });
    expect(chosen.status).toBe(400);
    expect(chosen.body.message).toBe('target veloflux is not configured on this server (VELOFLUX_URL is unset)');
    expect(llm.requests).toHaveLength(0);
  });

  it('a configured Manager is listed after the default, and marked when it cannot be reached', async () => {
    // A port nothing listens on: configured, but down.
    const api = await gateway(
      { TARGET: 'duckdb', ENGINE_RETRIES: '0', ENGINE_TIMEOUT_MS: '500' },
      'http://127.0.0.1:9',
    );
    const res = await api.request('GET', '/v1/targets');
    expect(res.status).toBe(200);
    expect(res.body.targets.map((t: { kind: string }) => t.kind)).toEqual(['duckdb', 'veloflux']);
    expect(res.body.targets[1]).toMatchObject({ kind: 'veloflux', reachable: false });
    expect(res.body.targets[1].problem).toContain('VELOFLUX_URL');
  });
});
