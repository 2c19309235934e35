import type { AddressInfo } from 'node:net';
import { createGatewayApp } from '../../apps/gateway/src/create-app';
import { twoTenantsOnDemo } from '../support/tenants';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'key-of-acme-0123456789';
const KEY_B = 'key-of-globex-9876543210';

const REVENUE = {
  kind: 'expr',
  table: 'orders',
  expr: {
    kind: 'arith',
    op: '*',
    left: { kind: 'column', ref: { column: 'quantity' } },
    right: { kind: 'column', ref: { column: 'unit_price' } },
  },
};
const REVENUE_PER_COUNTRY =
  'SELECT customers.country, sum(orders.quantity * orders.unit_price) AS sum_revenue FROM orders JOIN customers ON orders.customer_id = customers.customer_id GROUP BY customers.country';

const FILE = `terms:
  revenue: { table: orders, expr: quantity * unit_price }
  hot: { table: sensor_readings, condition: temperature > 30 }
  shipped ones: { table: orders, column: status, value: shipped }
`;

/**
 * The tenant's glossary through the gateway as a client drives it (real HTTP, real Redis, the
 * real workers on BullMQ, DuckDB's demo data); only the LLM is a scripted server, and the turns
 * here never reach it.
 */
describe('the glossary (/v1/glossary) and turns that read it', () => {
  const t = useWorkflowStack(twoTenantsOnDemo(KEY_A, KEY_B));

  async function call(method: string, path: string, key = KEY_A, body?: unknown, base = t.stack.gatewayUrl) {
    const yaml = typeof body === 'string';
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': yaml ? 'application/yaml' : 'application/json' }),
      },
      body: body === undefined ? undefined : yaml ? body : JSON.stringify(body),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json');
    return { status: res.status, body: json && text ? JSON.parse(text) : text, type: res.headers.get('content-type') };
  }
  const terms = async (key = KEY_A) =>
    ((await call('GET', '/v1/glossary', key)).body.entries as { term: string }[]).map((e) => e.term);
  const clear = async (key: string) => {
    for (const term of await terms(key))
      expect((await call('DELETE', `/v1/glossary/${encodeURIComponent(term)}`, key)).status).toBe(204);
  };
  beforeEach(async () => {
    await clear(KEY_A);
    await clear(KEY_B);
  });

  async function turn(sessionId: string, text: string, key = KEY_A) {
    const res = await call('POST', `/v1/sessions/${sessionId}/turns`, key, { text, wait: true, timeout_ms: 30_000 });
    expect(res.status).toBe(200);
    return res.body;
  }
  const session = async (key = KEY_A) =>
    (await call('POST', '/v1/sessions', key, { target: 'duckdb' })).body.session_id as string;

  it('creates, lists, updates and deletes a term, with who and when', async () => {
    const created = await call('POST', '/v1/glossary', KEY_A, { term: 'Revenue', means: REVENUE, created_by: 'ana' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ term: 'Revenue', means: REVENUE, tenant: 'acme', created_by: 'ana' });
    expect(Date.parse(created.body.created_at)).not.toBeNaN();
    // Case and spacing do not make a second term.
    expect((await call('POST', '/v1/glossary', KEY_A, { term: 'revenue', means: REVENUE })).status).toBe(409);

    const qty = { kind: 'column', table: 'orders', column: 'quantity' };
    const updated = await call('PUT', '/v1/glossary/REVENUE', KEY_A, { means: qty });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      term: 'Revenue',
      means: qty,
      created_by: 'ana',
      created_at: created.body.created_at,
    });
    expect((await call('GET', '/v1/glossary')).body.entries).toEqual([updated.body]);

    expect((await call('DELETE', '/v1/glossary/revenue')).status).toBe(204);
    expect(await terms()).toEqual([]);
    expect((await call('DELETE', '/v1/glossary/revenue')).status).toBe(404);
    expect((await call('PUT', '/v1/glossary/revenue', KEY_A, { means: qty })).status).toBe(404);
  });

  it('refuses a bad entry with a 400 that names the field, storing nothing', async () => {
    const bad = await call('POST', '/v1/glossary', KEY_A, { term: 'x', means: { kind: 'column', table: 'orders' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('means');
    const extra = await call('POST', '/v1/glossary', KEY_A, { term: 'x', means: REVENUE, colour: 'red' });
    expect(extra.status).toBe(400);
    expect(await terms()).toEqual([]);
  });

  it("keeps each tenant's terms to itself", async () => {
    expect((await call('POST', '/v1/glossary', KEY_A, { term: 'revenue', means: REVENUE })).status).toBe(201);
    expect(await terms(KEY_B)).toEqual([]);
    expect((await call('PUT', '/v1/glossary/revenue', KEY_B, { means: REVENUE })).status).toBe(404);
    expect((await call('DELETE', '/v1/glossary/revenue', KEY_B)).status).toBe(404);
    expect(await call('GET', '/v1/glossary/export', KEY_B)).toMatchObject({ status: 200, body: 'terms: {}\n' });
    // Globex may have its own 'revenue', and a turn of globex does not read acme's.
    expect(
      (
        await call('POST', '/v1/glossary', KEY_B, {
          term: 'revenue',
          means: { kind: 'column', table: 'orders', column: 'quantity' },
        })
      ).status,
    ).toBe(201);
    expect((await call('GET', '/v1/glossary', KEY_A)).body.entries[0].means).toEqual(REVENUE);
    const view = await turn(await session(KEY_B), 'total revenue per country', KEY_B);
    expect(view.sql).not.toBe(REVENUE_PER_COUNTRY);
    expect((await call('GET', '/v1/glossary', KEY_B)).body.entries).toHaveLength(1);
  });

  it('exports a YAML file that imports back to the same glossary', async () => {
    const imported = await call('POST', '/v1/glossary/import', KEY_A, FILE);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ created: 3, updated: 0 });
    const exported = await call('GET', '/v1/glossary/export');
    expect(exported.type).toContain('application/yaml');
    const before = (await call('GET', '/v1/glossary')).body.entries;
    await clear(KEY_A);
    const again = await call('POST', '/v1/glossary/import', KEY_A, exported.body);
    expect(again.body).toMatchObject({ created: 3, updated: 0 });
    const after = (await call('GET', '/v1/glossary')).body.entries as { term: string; means: unknown }[];
    expect(after.map((e) => [e.term, e.means])).toEqual(
      before.map((e: { term: string; means: unknown }) => [e.term, e.means]),
    );
    // Importing over it again changes meanings in place and creates nothing.
    expect((await call('POST', '/v1/glossary/import', KEY_A, exported.body)).body).toMatchObject({
      created: 0,
      updated: 3,
    });
  });

  it('refuses a bad file with a 400 naming the line, and stores none of it', async () => {
    const bad = FILE.replace('condition: temperature > 30', 'condition: temperature is warm');
    const res = await call('POST', '/v1/glossary/import', KEY_A, bad);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^glossary file, line 3: /);
    expect(await terms()).toEqual([]);
  });

  it('keeps the glossary across a restart of the gateway against the same Redis', async () => {
    await call('POST', '/v1/glossary/import', KEY_A, FILE);
    const before = (await call('GET', '/v1/glossary')).body.entries;
    for (let restart = 0; restart < 2; restart++) {
      const app = await createGatewayApp(t.stack.config);
      await app.listen(0, '127.0.0.1');
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      try {
        expect((await call('GET', '/v1/glossary', KEY_A, undefined, url)).body.entries).toEqual(before);
      } finally {
        await app.close();
      }
    }
  });

  it('reads a glossary term in a new session like a schema word, and says so', async () => {
    expect((await call('POST', '/v1/glossary', KEY_A, { term: 'revenue', means: REVENUE })).status).toBe(201);
    const view = await turn(await session(), 'total revenue per country');
    expect(view.interrupt?.type).toBe('need_confirm');
    expect(view.sql).toBe(REVENUE_PER_COUNTRY);
    expect(view.assumptions).toContain('"revenue" is read as quantity * unit_price, as your glossary defines it');
    expect(t.llm.requests).toHaveLength(0);
  });

  it('refuses a definition naming a column the data does not have, with a 400 naming it', async () => {
    const state = { kind: 'condition', table: 'orders', where: { kind: 'compare', left: { kind: 'column', ref: { column: 'state' } }, op: '!=', value: { kind: 'string', value: 'cancelled' } } };
    const created = await call('POST', '/v1/glossary', KEY_A, { term: 'active', means: state });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe("'active': no column 'state' in orders; did you mean status?");
    const file = 'terms:\n  EU: { table: customers, condition: "land in (\'France\', \'Germany\')" }\n';
    const imported = await call('POST', '/v1/glossary/import', KEY_A, file);
    expect(imported.status).toBe(400);
    expect(imported.body.message).toMatch(/^glossary file, term 'EU': no column 'land' in customers/);
    expect(await terms()).toEqual([]);
  }); // prettier-ignore

  it('applies a text condition from the glossary when a request uses the term', async () => {
    const file = `terms:\n  EU: { table: customers, condition: "country in ('France', 'Germany')" }\n  active: { table: orders, condition: "status <> 'cancelled'" }\n`;
    const imported = await call('POST', '/v1/glossary/import', KEY_A, file);
    expect(imported.status).toBe(200);
    expect(imported.body.entries.find((e: { term: string }) => e.term === 'EU').means).toEqual({
      kind: 'condition',
      table: 'customers',
      where: { kind: 'in', column: { column: 'country' }, values: [{ kind: 'string', value: 'France' }, { kind: 'string', value: 'Germany' }] },
    });
    const names = await turn(await session(), 'the name of the EU customers');
    expect(names.sql).toBe("SELECT name FROM customers WHERE country IN ('France', 'Germany')");
    expect(names.assumptions).toContain(`"EU" is read as country in ('France', 'Germany'), as your glossary defines it`);
    const perSegment = await turn(await session(), 'number of customers that are EU per segment');
    expect(perSegment.sql).toBe("SELECT segment, count(*) AS count FROM customers WHERE country IN ('France', 'Germany') GROUP BY segment");
    // Two queries, one set of customers: the counts per segment add up to the names listed.
    const counted = (perSegment.preview.rows as [string, number][]).reduce((sum, [, n]) => sum + Number(n), 0);
    expect(counted).toBe(names.preview.rows.length);
    expect(counted).toBeGreaterThan(0);

    const active = await turn(await session(), 'the order_id of the active orders');
    expect(active.sql).toBe("SELECT order_id FROM orders WHERE status != 'cancelled'");
    expect(active.assumptions).toContain(`"active" is read as status != 'cancelled', as your glossary defines it`);
    // Another tenant's turn does not read acme's terms.
    expect((await turn(await session(KEY_B), 'the name of the EU customers', KEY_B)).sql ?? '').not.toContain('France');
    expect(t.llm.requests).toHaveLength(0);
  }); // prettier-ignore

  it('keeps a confirmed question, and shows a new request close to it as like that earlier question', async () => {
    const first = await session();
    const asked = await turn(first, 'average temperature per device, only above 30');
    expect(asked.similar_to).toBeNull();
    expect(asked.interrupt?.type).toBe('need_confirm');
    // Not confirmed yet: nothing is kept.
    expect((await turn(await session(), 'the average temperature for each device, only above 30')).similar_to).toBeNull();
    const confirmed = await call('POST', `/v1/sessions/${first}/turns`, KEY_A, { confirm: true });
    expect(confirmed.body.status).toBe('idle');

    const again = await turn(await session(), 'the average temperature for each device, only above 30');
    expect(again.similar_to).toMatchObject({ request: 'average temperature per device, only above 30', sql: asked.sql });
    expect((await turn(await session(), 'average humidity per device')).similar_to).toBeNull();
    // Another tenant's confirmed questions are its own.
    expect((await turn(await session(KEY_B), 'the average temperature for each device, only above 30', KEY_B)).similar_to).toBeNull();
  }); // prettier-ignore

  it('offers to remember a definition given in a reply, and a new session reads it once remembered', async () => {
    const id = await session();
    expect((await turn(id, 'total revenue per country')).interrupt?.type).toBe('need_clarification');
    const answered = await turn(id, 'revenue is quantity times unit price');
    expect(answered.sql).toBe(REVENUE_PER_COUNTRY);
    expect(answered.assumptions.join('\n')).toContain('to keep "revenue" for every session, add it to your glossary');
    expect(await terms()).toEqual([]);

    const remembered = await call('POST', '/v1/glossary/remember', KEY_A, { session_id: id, term: 'revenue' });
    expect(remembered.status).toBe(201);
    expect(remembered.body).toMatchObject({ term: 'revenue', means: REVENUE, created_by: `session ${id}` });
    // Another tenant cannot remember from acme's session.
    expect((await call('POST', '/v1/glossary/remember', KEY_B, { session_id: id, term: 'revenue' })).status).toBe(404);

    const next = await turn(await session(), 'total revenue per country');
    expect(next.sql).toBe(REVENUE_PER_COUNTRY);
    expect(next.assumptions).toContain('"revenue" is read as quantity * unit_price, as your glossary defines it');
  });
});
