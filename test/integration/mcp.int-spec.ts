import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createMcpHttpApp } from '../../apps/mcp/src/http';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'mcp-key-of-acme-0123456789';
const KEY_B = 'mcp-key-of-globex-9876543210';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');
const ROOT = path.resolve(__dirname, '../..');

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REQUEST = 'average temperature per device every 10 seconds, only above 30';

type Structured = Record<string, any>;
const structured = (r: unknown) => (r as CallToolResult).structuredContent as Structured;
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe('MCP server (official SDK client, over Streamable HTTP and stdio, against the in-process stack)', () => {
  const w = useWorkflowStack({
    env: { AUTH_DISABLED: 'false', API_KEYS: `acme:${sha(KEY_A)},globex:${sha(KEY_B)}` },
  });
  let http: Server;
  let mcpUrl: URL;

  beforeAll(async () => {
    const app = createMcpHttpApp({ gatewayUrl: w.stack.gatewayUrl, waitMs: 20_000 });
    http = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    mcpUrl = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  });
  afterAll(() => new Promise((r) => http?.close(r)));

  async function httpClient(key: string): Promise<Client> {
    const client = new Client({ name: 'nl2p-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    return client;
  }

  describe('Streamable HTTP', () => {
    let client: Client;
    beforeAll(async () => {
      client = await httpClient(KEY_A);
    });
    afterAll(async () => {
      await client?.close();
    });

    it('offers the tools and resource templates', async () => {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(tools).toEqual([
        'answer',
        'ask',
        'cancel',
        'describe_stream',
        'examples',
        'get_session',
        'glossary',
        'list_sessions',
        'list_streams',
      ]);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
      expect(templates).toEqual(['nl2p://sessions/{session_id}', 'nl2p://sessions/{session_id}/trace']);
    });

    it("lists and describes the engine's streams", async () => {
      const list = structured(await client.callTool({ name: 'list_streams', arguments: {} }));
      expect(list.target).toBe('veloflux');
      expect(list.streams.map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['sensor_stream', 'vehicle']),
      );
      const vehicle = structured(await client.callTool({ name: 'describe_stream', arguments: { name: 'vehicle' } }));
      expect(vehicle.columns).toContainEqual({ name: 'speed', data_type: 'int64' });

      const missing = (await client.callTool({
        name: 'describe_stream',
        arguments: { name: 'nope' },
      })) as CallToolResult;
      expect(missing.isError).toBe(true);
      expect(text(missing)).toBe("no stream or table named 'nope'");
    });

    it('a whole conversation: ask → which stream → answer → confirm → the pipeline request; view and trace as resources', async () => {
      w.script.route({ intent: 'nl2sql', stream: null, question: null }).draft(GOOD_SQL);

      const asked = await client.callTool({ name: 'ask', arguments: { text: REQUEST } });
      const first = structured(asked);
      expect(first.status).toBe('waiting');
      expect(first).toMatchObject({ waiting_for: 'need_stream', choices: ['sensor_stream', 'vehicle'] });
      const id = first.session_id as string;
      expect(text(asked)).toContain(`Call answer with {"session_id": "${id}", "stream"`);

      const chosenResult = await client.callTool({
        name: 'answer',
        arguments: { session_id: id, stream: 'sensor_stream' },
      });
      const chosen = structured(chosenResult);
      expect(chosen.waiting_for).toBe('need_confirm');
      expect(chosen.sql).toBe(GOOD_SQL);
      expect(text(chosenResult)).toContain('confirming returns the pipeline request (nothing is applied)');
      // Compact by default: the engine's plan stays in the full view.
      expect(chosen.explain).toBeUndefined();
      const full = structured(
        await client.callTool({ name: 'get_session', arguments: { session_id: id, view: 'full' } }),
      );
      expect(full.explain).toContain('Logical Plan Explain:');

      const twoAtOnce = (await client.callTool({
        name: 'answer',
        arguments: { session_id: id, confirm: true, feedback: 'more' },
      })) as CallToolResult;
      expect(twoAtOnce.isError).toBe(true);
      expect(text(twoAtOnce)).toBe('answer takes exactly one of: stream, text, confirm, feedback');

      const done = await client.callTool({ name: 'answer', arguments: { session_id: id, confirm: true } });
      expect(structured(done)).toMatchObject({ status: 'idle' });
      expect(structured(done).waiting_for).toBeUndefined();
      expect(structured(done).pipeline_request).toMatchObject({ id: 'REPLACE_ME', sql: GOOD_SQL });
      expect(text(done)).toContain('Done. pipeline_request is the pipeline to create');

      // The product's own words for a turn it refuses.
      const again = (await client.callTool({
        name: 'answer',
        arguments: { session_id: id, confirm: true },
      })) as CallToolResult;
      expect(again.isError).toBe(true);
      expect(text(again)).toMatch(/confirm/i);

      const view = await client.readResource({ uri: `nl2p://sessions/${id}` });
      expect(JSON.parse((view.contents[0] as { text: string }).text)).toMatchObject({
        session_id: id,
        pipeline_request: { sql: GOOD_SQL },
      });
      const trace = await client.readResource({ uri: `nl2p://sessions/${id}/trace` });
      const records = JSON.parse((trace.contents[0] as { text: string }).text).records as { node: string }[];
      expect(records.map((r) => r.node)).toEqual(expect.arrayContaining(['route_intent', 'validate', 'explain']));

      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).toContain(`nl2p://sessions/${id}`);
    });

    it('answers a clarification with text and changes the draft with feedback', async () => {
      const revised = GOOD_SQL.replace('> 30', '> 35');
      w.script
        .route({ intent: 'ask_user', stream: null, question: 'Which measurement do you mean?' })
        .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
        .draft(GOOD_SQL)
        .revise({ sql: revised, questions: [], assumptions: [] });

      const asked = await client.callTool({ name: 'ask', arguments: { text: 'show me the hot ones' } });
      const id = structured(asked).session_id as string;
      expect(structured(asked)).toMatchObject({
        waiting_for: 'need_clarification',
        question: 'Which measurement do you mean?',
      });
      expect(text(asked)).toContain(`call answer with {"session_id": "${id}", "text"`);

      const clarified = structured(
        await client.callTool({ name: 'answer', arguments: { session_id: id, text: REQUEST } }),
      );
      expect(clarified).toMatchObject({ waiting_for: 'need_confirm', sql: GOOD_SQL });

      const changed = structured(
        await client.callTool({ name: 'answer', arguments: { session_id: id, feedback: 'use 35 degrees instead' } }),
      );
      expect(changed).toMatchObject({ waiting_for: 'need_confirm', sql: revised });
    });

    it('cancel stops a running turn; list_sessions pages through this key’s sessions', async () => {
      const route = { intent: 'nl2sql' as const, stream: 'sensor_stream', question: null };
      w.script.route(route, route).draft(GOOD_SQL, { content: GOOD_SQL, chunkDelayMs: 400 });
      const running = structured(await client.callTool({ name: 'ask', arguments: { text: REQUEST, view: 'compact' } }));
      // ask holds until the turn stops; a second, slow turn is started beside it to be cancelled.
      expect(running.status).toBe('waiting');
      const id = running.session_id as string;
      const post = await fetch(`${w.stack.gatewayUrl}/v1/sessions/${id}/turns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: REQUEST }),
      });
      expect(post.status).toBe(202);
      const cancelled = await client.callTool({ name: 'cancel', arguments: { session_id: id } });
      expect(structured(cancelled)).toMatchObject({ session_id: id, status: 'cancelled' });
      expect(text(cancelled)).toContain('The turn was cancelled.');
      const again = (await client.callTool({ name: 'cancel', arguments: { session_id: id } })) as CallToolResult;
      expect(again.isError).toBe(true);
      expect(text(again)).toMatch(/no turn is running/i);

      // Another session of this key, so there are two pages of one.
      await fetch(`${w.stack.gatewayUrl}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const page = structured(await client.callTool({ name: 'list_sessions', arguments: { limit: 1 } }));
      expect(page.sessions).toHaveLength(1);
      expect(typeof page.next_cursor).toBe('string');
      const next = structured(
        await client.callTool({ name: 'list_sessions', arguments: { limit: 100, cursor: page.next_cursor } }),
      );
      const ids = [...page.sessions, ...next.sessions].map((s: { session_id: string }) => s.session_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...page.sessions, ...next.sessions]).toContainEqual(
        expect.objectContaining({ session_id: id, status: 'cancelled', request: REQUEST, target: 'veloflux' }),
      );
    });

    it('compact results are a fraction of the full view for the same conversation', async () => {
      const sizes = { compact: 0, full: 0 };
      for (const view of ['compact', 'full'] as const) {
        w.script.route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
        const asked = await client.callTool({
          name: 'ask',
          arguments: { text: REQUEST, stream: 'sensor_stream', view },
        });
        const id = structured(asked).session_id as string;
        const done = await client.callTool({ name: 'answer', arguments: { session_id: id, confirm: true, view } });
        sizes[view] = JSON.stringify(asked).length + JSON.stringify(done).length;
        expect(structured(done).pipeline_request).toMatchObject({ sql: GOOD_SQL });
      }
      process.stdout.write(`MCP result bytes for ask → confirm: full ${sizes.full}, compact ${sizes.compact}\n`);
      expect(sizes.compact).toBeLessThan(sizes.full / 2);
    });

    it("another tenant's key sees none of it", async () => {
      w.script.route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
      const mine = structured(await client.callTool({ name: 'ask', arguments: { text: REQUEST } }));
      const other = await httpClient(KEY_B);
      try {
        const peek = (await other.callTool({
          name: 'get_session',
          arguments: { session_id: mine.session_id },
        })) as CallToolResult;
        expect(peek.isError).toBe(true);
        expect(text(peek)).toBe(`session ${mine.session_id} not found`);
        await expect(other.readResource({ uri: `nl2p://sessions/${mine.session_id}` })).rejects.toThrow(/not found/);
        expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(
          `nl2p://sessions/${mine.session_id}`,
        );
      } finally {
        await other.close();
      }
    });

    it('no key or a key the gateway refuses is 401 with WWW-Authenticate; the SDK client cannot connect', async () => {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
      for (const headers of [{}, { authorization: 'Bearer not-a-key' }] as Record<string, string>[]) {
        const res = await fetch(mcpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(init),
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      }
      const client = new Client({ name: 'nl2p-test', version: '1.0.0' });
      await expect(
        client.connect(
          new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: 'Bearer wrong' } } }),
        ),
      ).rejects.toThrow();
    });
  });

  describe('stdio', () => {
    let client: Client;
    let stderr = '';
    beforeAll(async () => {
      client = new Client({ name: 'nl2p-test', version: '1.0.0' });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['-r', path.join(ROOT, 'test/support/register-ts.js'), path.join(ROOT, 'apps/mcp/src/main.ts')],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', NL2P_URL: w.stack.gatewayUrl, NL2P_API_KEY: KEY_A, MCP_WAIT_MS: '20000' },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await client.connect(transport);
    }, 30_000);
    afterAll(async () => {
      await client?.close();
    });

    it('a conversation over stdio with the configured key: ask with a stream → confirm → pipeline request, trace resource', async () => {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('ask');
      w.script.route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
      const asked = structured(
        await client.callTool({ name: 'ask', arguments: { text: REQUEST, stream: 'sensor_stream' } }),
      );
      expect(asked.waiting_for).toBe('need_confirm');
      const done = structured(
        await client.callTool({ name: 'answer', arguments: { session_id: asked.session_id, confirm: true } }),
      );
      expect(done.pipeline_request).toMatchObject({ id: 'REPLACE_ME', sql: GOOD_SQL });

      const trace = await client.readResource({ uri: `nl2p://sessions/${asked.session_id}/trace` });
      expect(JSON.parse((trace.contents[0] as { text: string }).text).records.length).toBeGreaterThan(0);
      // The session belongs to the key's tenant: the gateway lists it for that key.
      const res = await fetch(`${w.stack.gatewayUrl}/v1/sessions?limit=100`, {
        headers: { authorization: `Bearer ${KEY_A}` },
      });
      const ids = ((await res.json()) as { sessions: { session_id: string }[] }).sessions.map((s) => s.session_id);
      expect(ids).toContain(asked.session_id);
      expect(stderr).toContain('serving on stdio');
    });
  });
});
