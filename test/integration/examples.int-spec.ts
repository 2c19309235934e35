import type { AddressInfo } from 'node:net';
import { createGatewayApp } from '../../apps/gateway/src/create-app';
import { twoTenantsOnDemo } from '../support/tenants';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'key-of-acme-0123456789';
const KEY_B = 'key-of-globex-9876543210';

const HOT = 'average temperature per device, only above 30';

/**
 * The tenant's confirmed questions through the gateway as a client drives it (real HTTP, real
 * Redis, the real workers on BullMQ, DuckDB's demo data): a request that is one of them with other
 * values reuses its confirmed plan, checked again; listed and forgotten per tenant. Only the LLM is
 * a scripted server, and no turn here reaches it.
 */
describe('confirmed questions (/v1/examples) and turns that reuse them', () => {
  const t = useWorkflowStack(twoTenantsOnDemo(KEY_A, KEY_B));

  async function call(method: string, path: string, key = KEY_A, body?: unknown, base = t.stack.gatewayUrl) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  async function turn(sessionId: string, body: Record<string, unknown>, key = KEY_A) {
    const res = await call('POST', `/v1/sessions/${sessionId}/turns`, key, { ...body, wait: true, timeout_ms: 30_000 });
    expect(res.status).toBe(200);
    return res.body;
  }
  const session = async (key = KEY_A) =>
    (await call('POST', '/v1/sessions', key, { target: 'duckdb' })).body.session_id as string;
  const examples = async (key = KEY_A) => (await call('GET', '/v1/examples', key)).body.examples as any[];
  /** Asks `text` in a new session and confirms what it drafted (after `feedback`, if any). */
  async function confirmed(text: string, feedback?: string, key = KEY_A) {
    const id = await session(key);
    let view = await turn(id, { text }, key);
    if (feedback) view = await turn(id, { feedback }, key);
    expect(view.interrupt?.type).toBe('need_confirm');
    expect((await call('POST', `/v1/sessions/${id}/turns`, key, { confirm: true })).body.status).toBe('idle');
    return view;
  }
  const nodes = async (id: string) =>
    ((await call('GET', `/v1/sessions/${id}/trace`)).body.records as { node: string }[]).map((r) => r.node);

  beforeEach(async () => {
    for (const e of (await call('GET', '/v1/glossary')).body.entries as { term: string }[]) {
      expect((await call('DELETE', `/v1/glossary/${encodeURIComponent(e.term)}`)).status).toBe(204);
    }
    for (const key of [KEY_A, KEY_B]) {
      for (const e of await examples(key)) expect((await call('DELETE', `/v1/examples/${e.id}`, key)).status).toBe(204);
    }
  });

  it('reuses the confirmed plan (with its edit) for the same question with another value, and checks it again', async () => {
    // The confirmed plan carries an edit the request's words do not say: reused, it is still there.
    const first = await confirmed(HOT, 'sort by newest');
    expect(first.sql).toMatch(/temperature > 30 .*ORDER BY/);

    const id = await session();
    const again = await turn(id, { text: 'average temperature per device, only above 25' });
    expect(again.interrupt?.type).toBe('need_confirm');
    expect(again.sql).toBe(first.sql.replace('temperature > 30', 'temperature > 25'));
    expect(again.assumptions).toContain(`Reused your earlier question '${HOT}' with 25 instead of 30.`);
    // Every check ran: compiled, checked locally, validated on the engine, previewed.
    expect(await nodes(id)).toEqual(
      expect.arrayContaining(['link', 'compile_plan', 'prevalidate', 'validate', 'explain']),
    );
    const averages = (again.preview.rows as unknown[][]).map((r) => Number(r[1]));
    expect(averages.length).toBeGreaterThan(0);
    for (const avg of averages) expect(avg).toBeGreaterThan(25);
    expect(t.llm.requests).toHaveLength(0);
  });

  it('does not reuse a plan when a word, not a value, differs, nor for another tenant', async () => {
    await confirmed(HOT, 'sort by newest');
    const humidity = await turn(await session(), { text: 'average humidity per device, only above 25' });
    expect(humidity.sql).toContain('humidity > 25');
    expect(humidity.sql).not.toContain('ORDER BY');
    expect(humidity.assumptions.join(' ')).not.toMatch(/Reused/);
    const other = await turn(await session(KEY_B), { text: 'average temperature per device, only above 25' }, KEY_B);
    expect(other.sql).not.toContain('ORDER BY');
    expect(other.assumptions.join(' ')).not.toMatch(/Reused/);
  });

  it('lists and forgets the tenant’s confirmed questions; another tenant sees and deletes none of them', async () => {
    const first = await confirmed(HOT);
    const listed = await examples();
    expect(listed).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{16}$/), request: HOT, sql: first.sql, target: 'duckdb', reusable: true, confirmed_at: expect.any(String) },
    ]);
    expect(await examples(KEY_B)).toEqual([]);
    expect((await call('DELETE', `/v1/examples/${listed[0].id}`, KEY_B)).status).toBe(404);
    expect(await examples()).toHaveLength(1);

    expect((await call('DELETE', `/v1/examples/${listed[0].id}`)).status).toBe(204);
    expect(await examples()).toEqual([]);
    expect((await call('DELETE', `/v1/examples/${listed[0].id}`)).status).toBe(404);
    // Forgotten, it is neither shown beside a new request nor reused.
    const after = await turn(await session(), { text: 'average temperature per device, only above 25' });
    expect(after.similar_to).toBeNull();
    expect(after.assumptions.join(' ')).not.toMatch(/Reused/);
  }); // prettier-ignore

  it('does not reuse a plan confirmed before the glossary last changed (a meaning it used may have changed)', async () => {
    await confirmed(HOT);
    const clients = { term: 'clients', means: { kind: 'table', table: 'customers' } };
    expect((await call('POST', '/v1/glossary', KEY_A, clients)).status).toBe(201);
    const variant = async () => turn(await session(), { text: 'average temperature per device, only above 25' });
    const view = await variant();
    expect(view.sql).toContain('temperature > 25');
    expect(view.assumptions.join(' ')).not.toMatch(/Reused/);
    expect((await examples())[0]).toMatchObject({ request: HOT, reusable: true });
    // Confirmed again after the change, it is reused; a term forgotten since is a change too.
    await confirmed(HOT);
    expect((await variant()).assumptions.join(' ')).toMatch(/^Reused your earlier question/);
    expect((await call('DELETE', '/v1/glossary/clients')).status).toBe(204);
    expect((await variant()).assumptions.join(' ')).not.toMatch(/Reused/);
  });

  it('keeps the confirmed questions across a restart of the gateway against the same Redis', async () => {
    await confirmed(HOT);
    const before = await examples();
    const app = await createGatewayApp(t.stack.config);
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    try {
      expect((await call('GET', '/v1/examples', KEY_A, undefined, url)).body.examples).toEqual(before);
    } finally {
      await app.close();
    }
  });
});
