import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'yaml';
import { GatewayHttpError } from '../../apps/cli/src/api';
import { cli, type CliIo } from '../../apps/cli/src/cli';
import { createMcpHttpApp } from '../../apps/mcp/src/http';
import { twoTenantsOnDemo } from '../support/tenants';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'surfaces-key-of-acme-0123456789';
const KEY_B = 'surfaces-key-of-globex-9876543210';

const REVENUE_PER_COUNTRY =
  'SELECT customers.country, sum(orders.quantity * orders.unit_price) AS sum_revenue FROM orders JOIN customers ON orders.customer_id = customers.customer_id GROUP BY customers.country';
const FILE = `terms:
  revenue: { table: orders, expr: quantity * unit_price }
  hot: { table: sensor_readings, condition: temperature > 30 }
  shipped ones: { table: orders, column: status, value: shipped }
`;

/** The CLI in this process with pipes for its terminal: what it printed, and its exit code. */
async function runCli(args: string[], key: string, url: string, input = '') {
  const stdin = new PassThrough();
  stdin.end(input);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (b: Buffer) => (out += b.toString()));
  stderr.on('data', (b: Buffer) => (err += b.toString()));
  const io = { stdin, stdout, stderr, env: { NL2P_URL: url, NL2P_API_KEY: key, NO_COLOR: '1' } };
  const code = await cli(args, io as unknown as CliIo);
  return { code, out, err };
}

type Structured = Record<string, any>;
const structured = (r: unknown) => (r as CallToolResult).structuredContent as Structured;
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

/**
 * The glossary through the CLI and the MCP server, each a client of a real gateway (real HTTP,
 * Redis, the workers on BullMQ, DuckDB's demo data; only the LLM is scripted, and these turns
 * never reach it): what one surface teaches, a turn of any surface reads; another tenant's key
 * sees none of it.
 */
describe('the glossary from the CLI and the MCP server', () => {
  const t = useWorkflowStack(twoTenantsOnDemo(KEY_A, KEY_B));
  let dir: string;
  let http: Server;
  let mcpUrl: URL;
  const clients: Client[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'nl2p-glossary-'));
    const app = createMcpHttpApp({ gatewayUrl: t.stack.gatewayUrl, waitMs: 20_000 });
    http = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    mcpUrl = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await new Promise((r) => http?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  const cliAs = (key: string, args: string[], input?: string) => runCli(args, key, t.stack.gatewayUrl, input);
  const listed = async (key: string) => (await cliAs(key, ['glossary', 'list'])).out;
  beforeEach(async () => {
    // Each test starts from empty glossaries, cleared through the CLI itself.
    for (const key of [KEY_A, KEY_B]) {
      const file = (await cliAs(key, ['glossary', 'export'])).out;
      for (const term of Object.keys(parseTerms(file))) await cliAs(key, ['glossary', 'forget', term]);
    }
  });

  async function mcp(key: string): Promise<Client> {
    const client = new Client({ name: 'nl2p-glossary-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    clients.push(client);
    return client;
  }

  describe('CLI', () => {
    it('REPL: /define teaches a term, a request reads it, /glossary lists it, /forget removes it', async () => {
      const { code, out, err } = await cliAs(
        KEY_A,
        [],
        [
          '/define revenue = table: orders, expr: quantity * unit_price',
          '/glossary',
          'total revenue per country',
          'n',
          '/forget revenue',
          '/glossary',
          '/exit',
        ].join('\n'),
      );
      expect(code).toBe(0);
      expect(err).toContain("✓ defined 'revenue' as orders: quantity * unit_price");
      expect(out).toMatch(/revenue {2}orders: quantity \* unit_price {2}\(acme, \d{4}-/);
      // The request of the same REPL reads the term: the SQL, and the turn says where it came from.
      expect(out.replace(/\s+/g, ' ')).toContain('sum(orders.quantity * orders.unit_price) AS sum_revenue');
      expect(out).toContain('"revenue" is read as quantity * unit_price, as your glossary defines it');
      expect(err).toContain("✓ forgot 'revenue'");
      expect(out).toContain('the glossary is empty');
      expect(t.llm.requests).toHaveLength(0);
    });

    it('one-shot: import a file, export it back, define and forget; a bad file is refused naming its line', async () => {
      const file = path.join(dir, 'team.yaml');
      writeFileSync(file, FILE);
      const imported = await cliAs(KEY_A, ['glossary', 'import', file]);
      expect(imported).toMatchObject({ code: 0, err: `imported ${file}: 3 new, 0 changed, 3 in all\n` });

      const exported = path.join(dir, 'exported.yaml');
      expect((await cliAs(KEY_A, ['glossary', 'export', exported])).code).toBe(0);
      expect(parseTerms(readFileSync(exported, 'utf8'))).toEqual(parseTerms(FILE));

      const defined = await cliAs(KEY_A, [
        'glossary',
        'define',
        'hot',
        '=',
        'table: sensor_readings, condition: temperature > 35',
      ]);
      expect(defined.err).toBe("redefined 'hot' as sensor_readings: temperature > 35\n");
      expect(await listed(KEY_A)).toMatch(/^hot +sensor_readings: temperature > 35 /m);

      const bad = path.join(dir, 'bad.yaml');
      writeFileSync(
        bad,
        FILE.replace(
          'revenue: { table: orders, expr: quantity * unit_price }',
          'revenue: { table: orders, expr: quantity times }',
        ),
      );
      const refused = cliAs(KEY_A, ['glossary', 'import', bad]);
      await expect(refused).rejects.toThrow(GatewayHttpError);
      await expect(refused).rejects.toMatchObject({
        status: 400,
        detail: expect.stringMatching(/^glossary file, line 2: /),
      });
      // Nothing of the bad file was stored: the meaning is still the first file's.
      expect(await listed(KEY_A)).toMatch(/^revenue +orders: quantity \* unit_price /m);

      // A definition the gateway cannot read is refused in the words of the term, not of a file's line.
      await expect(
        cliAs(KEY_A, ['glossary', 'define', 'warm = table: sensor_readings, condition: temperature is warm']),
      ).rejects.toMatchObject({
        status: 400,
        detail: expect.stringMatching(/^'warm': 'temperature is warm' is not a condition/),
      });

      expect((await cliAs(KEY_A, ['glossary', 'forget', 'shipped ones'])).err).toBe("forgot 'shipped ones'\n");
      expect(await listed(KEY_A)).not.toContain('shipped ones');
    });

    it("another tenant's key sees none of the terms and cannot forget them", async () => {
      await cliAs(KEY_A, ['glossary', 'define', 'revenue = table: orders, expr: quantity * unit_price']);
      expect(await listed(KEY_B)).toContain('the glossary is empty');
      expect((await cliAs(KEY_B, ['glossary', 'export'])).out).toBe('terms: {}\n');
      await expect(cliAs(KEY_B, ['glossary', 'forget', 'revenue'])).rejects.toMatchObject({ status: 404 });
      expect(await listed(KEY_A)).toMatch(/^revenue /m);
    });
  });

  describe('MCP', () => {
    it('defines a term, a new session asked through MCP reads it, lists and forgets it', async () => {
      const client = await mcp(KEY_A);
      const defined = structured(
        await client.callTool({
          name: 'glossary',
          arguments: { action: 'define', term: 'revenue', table: 'orders', expr: 'quantity * unit_price' },
        }),
      );
      expect(defined).toMatchObject({
        defined: { term: 'revenue', table: 'orders', means: 'quantity * unit_price', by: 'acme' },
        new: true,
      });

      const asked = structured(
        await client.callTool({ name: 'ask', arguments: { text: 'total revenue per country' } }),
      );
      expect(asked.sql).toBe(REVENUE_PER_COUNTRY);
      expect(asked.assumptions).toContain('"revenue" is read as quantity * unit_price, as your glossary defines it');

      const list = structured(await client.callTool({ name: 'glossary', arguments: { action: 'list' } }));
      expect(list.terms).toEqual([expect.objectContaining({ term: 'revenue', means: 'quantity * unit_price' })]);
      expect(
        structured(await client.callTool({ name: 'glossary', arguments: { action: 'forget', term: 'Revenue' } })),
      ).toEqual({
        forgotten: 'Revenue',
      });
      expect(structured(await client.callTool({ name: 'glossary', arguments: { action: 'list' } })).terms).toEqual([]);
      expect(t.llm.requests).toHaveLength(0);
    });

    it("refuses what it cannot store, in the product's words, and keeps tenants apart", async () => {
      const a = await mcp(KEY_A);
      const b = await mcp(KEY_B);
      const bad = (await a.callTool({
        name: 'glossary',
        arguments: { action: 'define', term: 'hot', table: 'sensor_readings', condition: 'temperature is warm' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^'hot': 'temperature is warm' is not a condition/);
      const noTable = (await a.callTool({
        name: 'glossary',
        arguments: { action: 'define', term: 'hot' },
      })) as CallToolResult;
      expect(text(noTable)).toBe('define needs the table the term belongs to');

      await a.callTool({ name: 'glossary', arguments: { action: 'define', term: 'clients', table: 'customers' } });
      expect(structured(await b.callTool({ name: 'glossary', arguments: { action: 'list' } })).terms).toEqual([]);
      const forget = (await b.callTool({
        name: 'glossary',
        arguments: { action: 'forget', term: 'clients' },
      })) as CallToolResult;
      expect(forget.isError).toBe(true);
      expect(text(forget)).toBe("the glossary has no term 'clients'");
      expect(structured(await a.callTool({ name: 'glossary', arguments: { action: 'list' } })).terms).toEqual([
        expect.objectContaining({ term: 'clients', means: 'customers' }),
      ]);
    });
  });
});

/**
 * The tenant's confirmed questions through the CLI and the MCP server, against the same kind of
 * real stack: a question confirmed from one surface is listed by the others, forgotten by its id,
 * and another tenant's key sees and forgets none of them.
 */
describe('confirmed questions from the CLI and the MCP server', () => {
  const t = useWorkflowStack(twoTenantsOnDemo(KEY_A, KEY_B));
  let http: Server;
  let mcpUrl: URL;
  const clients: Client[] = [];
  const HOT = 'average temperature per device, only above 30';

  beforeAll(async () => {
    const app = createMcpHttpApp({ gatewayUrl: t.stack.gatewayUrl, waitMs: 20_000 });
    http = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    mcpUrl = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await new Promise((r) => http?.close(r));
  });
  const cliAs = (key: string, args: string[], input?: string) => runCli(args, key, t.stack.gatewayUrl, input);
  async function mcp(key: string): Promise<Client> {
    const client = new Client({ name: 'nl2p-examples-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    clients.push(client);
    return client;
  }

  it('CLI: a question confirmed with ask --yes is listed with its id, and forgotten by it (REPL and one-shot)', async () => {
    expect((await cliAs(KEY_A, ['ask', HOT, '--yes'])).code).toBe(0);
    const listed = await cliAs(KEY_A, ['examples']);
    expect(listed.code).toBe(0);
    const [, id] = /^([0-9a-f]{16}) {2}(.*)$/m.exec(listed.out) ?? [];
    expect(listed.out).toMatch(new RegExp(`^${id}  ${HOT}\\n  SELECT device_id, avg\\(temperature\\).* \\(duckdb, \\d{4}-`, 'm'));
    // Another tenant's key sees none, and cannot forget it.
    expect((await cliAs(KEY_B, ['examples', 'list'])).out).toContain('no confirmed questions yet');
    await expect(cliAs(KEY_B, ['examples', 'forget', id])).rejects.toMatchObject({ status: 404 });

    const repl = await cliAs(KEY_A, [], [`/examples forget ${id}`, '/examples', '/exit'].join('\n'));
    expect(repl.code).toBe(0);
    expect(repl.err).toContain(`✓ forgot the confirmed question ${id}`);
    expect(repl.out).toContain('no confirmed questions yet');
    await expect(cliAs(KEY_A, ['examples', 'forget', id])).rejects.toMatchObject({ status: 404 });
    expect(t.llm.requests).toHaveLength(0);
  }); // prettier-ignore

  it('MCP: lists the tenant’s confirmed questions and forgets one; another tenant sees none', async () => {
    expect((await cliAs(KEY_A, ['ask', HOT, '--yes'])).code).toBe(0);
    const a = await mcp(KEY_A);
    const b = await mcp(KEY_B);
    const list = structured(await a.callTool({ name: 'examples', arguments: { action: 'list' } }));
    expect(list.examples).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f]{16}$/), question: HOT, reusable: true }),
    ]);
    const id = list.examples[0].id as string;
    expect(structured(await b.callTool({ name: 'examples', arguments: { action: 'list' } })).examples).toEqual([]);
    const refused = (await b.callTool({ name: 'examples', arguments: { action: 'forget', id } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(`no example ${id}`);

    expect(structured(await a.callTool({ name: 'examples', arguments: { action: 'forget', id } }))).toEqual({ forgotten: id });
    expect(structured(await a.callTool({ name: 'examples', arguments: { action: 'list' } })).examples).toEqual([]);
  }); // prettier-ignore
});

/** The terms of a glossary file, by name, each with its meaning's fields. */
function parseTerms(file: string): Record<string, Record<string, unknown>> {
  return (parse(file) as { terms?: Record<string, Record<string, unknown>> } | null)?.terms ?? {};
}
