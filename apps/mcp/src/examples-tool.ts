import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Example, Gateway } from '@nl2p/gateway-client';
import { guarded, jsonResult } from './results';

// One tool for the tenant's confirmed questions, as for the glossary: list them, or forget one
// confirmed by mistake (it is then neither shown beside close requests nor reused with new values).

const INPUT = {
  action: z.enum(['list', 'forget']).describe('list: every confirmed question; forget: remove one by its id'),
  id: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{16}$/, 'an example id is 16 hex digits')
    .optional()
    .describe('forget: the id list gave'),
};

/** A confirmed question as an agent reads it. */
function shown(e: Example) {
  return { id: e.id, question: e.request, sql: e.sql, target: e.target, reusable: e.reusable, at: e.confirmed_at };
}

export function registerExamplesTool(
  server: McpServer,
  gw: (extra: { authInfo?: { token: string } }) => Gateway,
): void {
  server.registerTool(
    'examples',
    {
      title: 'Confirmed questions',
      description:
        "The questions this key's tenant confirmed, with their SQL: a new request close to one is shown beside it, and " +
        'one differing only in values reuses its plan. list them, or forget one by id.',
      inputSchema: INPUT,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ action, id }, extra) =>
      guarded(async (): Promise<CallToolResult> => {
        const gateway = gw(extra);
        if (action === 'list') return jsonResult({ examples: (await gateway.examples()).map(shown) });
        if (!id) return { isError: true, content: [{ type: 'text', text: 'forget needs the id list gave' }] };
        await gateway.forgetExample(id);
        return jsonResult({ forgotten: id });
      }),
  );
}
