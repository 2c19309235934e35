import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TargetKind } from '@nl2p/envelope';
import type { Gateway, SessionView, TurnBody } from '@nl2p/gateway-client';
import { compactView } from './compact-view';
import { registerExamplesTool } from './examples-tool';
import { registerGlossaryTool } from './glossary-tool';
import { guarded, jsonResult } from './results';

export const SERVER_NAME = 'nl2pipeline';
export const SERVER_VERSION = '0.1.0';

/** Longest a tool call holds for a turn; agents' MCP clients time out requests after about 60 s. */
const DEFAULT_WAIT_MS = 50_000;

const TARGET = TargetKind.optional().describe(
  `Engine: ${TargetKind.options.join(', ')} (veloflux builds streaming pipelines; the others run SQL). The server's default when absent.`,
);
const SESSION_ID = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'session_id is the 32-hex id a previous ask returned')
  .describe('The session_id an earlier ask returned');

export interface McpServerOptions {
  /** The gateway client to use for one tool call (HTTP: built from that request's API key). */
  gateway: (authToken: string | undefined) => Gateway;
  /** How long ask/answer hold for the turn before answering `running`. */
  waitMs?: number;
}

/** What the agent should do next, in one sentence, from the session's state. */
export function nextStep(view: SessionView): string {
  const id = view.session_id;
  const interrupt = view.status === 'waiting' ? view.interrupt : null;
  switch (interrupt?.type) {
    case 'need_stream':
      return `${interrupt.question ?? 'Which stream?'} Call answer with {"session_id": "${id}", "stream": <one of ${JSON.stringify(interrupt.choices ?? [])}>}.`;
    case 'need_clarification':
      return `${interrupt.question ?? 'The request needs a clarification.'} Ask the person, then call answer with {"session_id": "${id}", "text": <their answer>}.`;
    case 'need_confirm': {
      // On a database the SQL already ran read-only; only veloFlux yields a pipeline to create.
      const what =
        view.target === 'veloflux'
          ? 'The engine accepted this SQL; confirming returns the pipeline request (nothing is applied).'
          : 'This SQL ran read-only; its rows are in the preview (nothing is changed).';
      return `${what} Show it to the person, then call answer with {"session_id": "${id}", "confirm": true} to accept, "confirm": false to discard, or "feedback": <what to change>.`;
    }
    default:
      break;
  }
  switch (view.status) {
    case 'running':
      return `The turn is still running; call get_session with {"session_id": "${id}"} in a moment.`;
    case 'failed':
      return `The turn failed${view.error?.node ? ` at ${view.error.node}` : ''}: ${view.error?.message ?? 'unknown error'}`;
    case 'cancelled':
      return 'The turn was cancelled.';
    default:
      if (view.pipeline_request) {
        return "Done. pipeline_request is the pipeline to create: POST it to the veloFlux Manager's /pipelines after setting a real id.";
      }
      if (view.answer) return view.answer.text;
      return view.sql ? 'Done. The SQL and its preview rows are in the session view.' : 'Done.';
  }
}

const VIEW = z
  .enum(['compact', 'full'])
  .optional()
  .describe(
    'compact (default): status, the question or the SQL, the answer, up to 5 rows; full: the whole session view',
  );

/** The next step in a sentence, then the view (compact unless asked for in full). */
function viewResult(view: SessionView, detail: 'compact' | 'full' = 'compact'): CallToolResult {
  const shown: Record<string, unknown> = detail === 'full' ? view : compactView(view);
  return {
    content: [{ type: 'text', text: `${nextStep(view)}\n\n${JSON.stringify(shown)}` }],
    structuredContent: shown,
  };
}

/**
 * The nl2pipeline agent as an MCP server: tools to ask, answer the workflow's questions and look
 * at the engine's streams; resources for a session's view and its per-node trace. Every call goes
 * to the gateway's REST API with the caller's key.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        'Turns a request in plain words into a validated streaming SQL pipeline (veloFlux) or SQL (DuckDB, PostgreSQL). ' +
        'Call ask with the request; the workflow may stop to ask which stream, a clarification or a confirmation: ' +
        'answer it with answer. It never creates a pipeline itself: the accepted result is the pipeline request JSON.',
    },
  );
  const gw = (extra: { authInfo?: { token: string } }) => options.gateway(extra.authInfo?.token || undefined);

  server.registerTool(
    'list_streams',
    {
      title: 'List streams',
      description: "The engine's streams (tables on SQL targets) with their columns.",
      inputSchema: { target: TARGET },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ target }, extra) => guarded(async () => jsonResult(await gw(extra).streams(target))),
  );

  server.registerTool(
    'describe_stream',
    {
      title: 'Describe a stream',
      description: "One stream's (or table's) columns and types.",
      inputSchema: { name: z.string().min(1).max(256).describe('Stream or table name'), target: TARGET },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name, target }, extra) =>
      guarded(async () => {
        const info = await gw(extra).describeStream(name, target);
        if (info) return jsonResult(info);
        return { isError: true, content: [{ type: 'text', text: `no stream or table named '${name}'` }] };
      }),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask for a pipeline',
      description:
        'A request in plain words ("average temperature per device every 10 seconds, only above 30"). Starts a session ' +
        'unless session_id continues one. Answers when the workflow needs the person (which stream, a clarification, ' +
        'a confirmation of the validated SQL) or is done; the text says what to do next.',
      inputSchema: {
        text: z.string().min(1).max(4000).describe('The request'),
        session_id: SESSION_ID.optional(),
        target: TARGET.describe('Engine of a new session (ignored with session_id)'),
        stream: z.string().min(1).max(256).optional().describe('The stream to read from, when known'),
        view: VIEW,
      },
    },
    ({ text, session_id, target, stream, view }, extra) =>
      guarded(async () => {
        const gateway = gw(extra);
        const id = session_id ?? (await gateway.createSession(target ? { target } : {})).session_id;
        return viewResult(await gateway.waitTurn(id, stream ? { text, stream } : { text }, waitMs), view);
      }),
  );

  server.registerTool(
    'answer',
    {
      title: 'Answer the workflow',
      description:
        'Answers what the session waits for, with exactly one of: stream (the choice at need_stream), text (the answer ' +
        'to need_clarification), confirm (true accepts, false discards the SQL at need_confirm), feedback (what to ' +
        'change in the SQL at need_confirm).',
      inputSchema: {
        session_id: SESSION_ID,
        stream: z.string().min(1).max(256).optional(),
        text: z.string().min(1).max(4000).optional(),
        confirm: z.boolean().optional(),
        feedback: z.string().min(1).max(4000).optional(),
        view: VIEW,
      },
    },
    ({ session_id, stream, text, confirm, feedback, view }, extra) =>
      guarded(async () => {
        const given: TurnBody = Object.fromEntries(
          Object.entries({ stream, text, confirm, feedback }).filter(([, v]) => v !== undefined),
        );
        const count = Object.keys(given).length;
        if (count !== 1) {
          return {
            isError: true,
            content: [{ type: 'text', text: 'answer takes exactly one of: stream, text, confirm, feedback' }],
          };
        }
        return viewResult(await gw(extra).waitTurn(session_id, given, waitMs), view);
      }),
  );

  server.registerTool(
    'get_session',
    {
      title: 'Get a session',
      description: "A session's current view: status, the pending question, SQL, the engine's plan, pipeline request.",
      inputSchema: { session_id: SESSION_ID, view: VIEW },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ session_id, view }, extra) => guarded(async () => viewResult(await gw(extra).getSession(session_id), view)),
  );

  server.registerTool(
    'cancel',
    {
      title: 'Cancel the running turn',
      description:
        'Stops the turn a session is running (its temporary pipelines are deleted); the session can take a new request at once.',
      inputSchema: { session_id: SESSION_ID },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ session_id }, extra) => guarded(async () => viewResult(await gw(extra).cancelTurn(session_id))),
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        "This key's sessions, newest first: id, status, request, what each waits for. Pass next_cursor back as cursor.",
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional().describe('Sessions per page (default 20)'),
        cursor: z.string().min(1).max(200).optional().describe('next_cursor of the previous page'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit, cursor }, extra) =>
      guarded(async () => {
        const page = await gw(extra).listSessions({ limit: limit ?? 20, ...(cursor ? { cursor } : {}) });
        return jsonResult({
          sessions: page.sessions.map((s) => ({
            session_id: s.session_id,
            status: s.status,
            request: s.request,
            target: s.target,
            waiting_for: s.interrupt_type,
            updated_at: s.updated_at,
          })),
          next_cursor: page.next_cursor,
        });
      }),
  );

  registerGlossaryTool(server, gw);
  registerExamplesTool(server, gw);

  const readJson = async (uri: URL, load: () => Promise<unknown>): Promise<ReadResourceResult> => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await load(), null, 2) }],
  });
  const sessionIdOf = (value: string | string[] | undefined): string => {
    const id = Array.isArray(value) ? value[0] : value;
    if (!id || !/^[0-9a-f]{32}$/.test(id)) throw new Error(`not a session id: ${String(id)}`);
    return id;
  };

  server.registerResource(
    'session',
    new ResourceTemplate('nl2p://sessions/{session_id}', {
      list: async (extra) => {
        const { sessions } = await gw(extra).listSessions({ limit: 50 });
        return {
          resources: sessions.map((s) => ({
            uri: `nl2p://sessions/${s.session_id}`,
            name: `session ${s.session_id}`,
            description: `${s.status}${s.request ? `: ${s.request}` : ''}`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Session view',
      description: "A session's view: status, interrupt, SQL, query plan, explain, preview rows, pipeline request.",
      mimeType: 'application/json',
    },
    (uri, { session_id }, extra) => readJson(uri, () => gw(extra).getSession(sessionIdOf(session_id))),
  );

  server.registerResource(
    'session-trace',
    new ResourceTemplate('nl2p://sessions/{session_id}/trace', { list: undefined }),
    {
      title: 'Session trace',
      description: 'Per-node records of every turn: node, service, latency, ok/error, LLM and engine calls.',
      mimeType: 'application/json',
    },
    (uri, { session_id }, extra) =>
      readJson(uri, async () => {
        const id = sessionIdOf(session_id);
        return { session_id: id, records: await gw(extra).trace(id) };
      }),
  );

  return server;
}
