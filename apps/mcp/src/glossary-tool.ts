import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeMeaning } from '@nl2p/envelope';
import type { Gateway, GlossaryEntry, GlossaryFields } from '@nl2p/gateway-client';
import { guarded, jsonResult } from './results';

// One tool for the tenant's glossary rather than one per operation: the server's tool list stays
// short (agents read every tool's description on each request), and the three actions share the
// term. A meaning uses the glossary file's fields, as a team writes them in git.

const FIELD = (what: string) => z.string().trim().min(1).max(1000).optional().describe(what);

const INPUT = {
  action: z
    .enum(['list', 'define', 'forget'])
    .describe('list: every term; define: teach a term (or change its meaning); forget: remove a term'),
  term: z.string().trim().min(1).max(100).optional().describe('The word or words (define, forget)'),
  table: FIELD('define: the table the term belongs to; alone, the term names that table'),
  column: FIELD('define: a column the term names (with value: a value of that column)'),
  value: FIELD('define: a value of `column` the term names ("shipped ones" → status = shipped)'),
  expr: FIELD('define: a per-row computation over the table\'s columns ("quantity * unit_price")'),
  condition: FIELD('define: a row condition ("temperature > 30")'),
};

/** An entry as an agent reads it: the term, its meaning in words, who taught it and when. */
function shown(e: GlossaryEntry) {
  return { term: e.term, table: e.means.table, means: describeMeaning(e.means), by: e.created_by, at: e.updated_at };
}

const error = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

export function registerGlossaryTool(
  server: McpServer,
  gw: (extra: { authInfo?: { token: string } }) => Gateway,
): void {
  server.registerTool(
    'glossary',
    {
      title: 'Glossary',
      description:
        "The terms this key's tenant taught the product, read by every session as if the person had explained them " +
        '("revenue" = quantity * unit_price in orders). list them, define one (term, table, and column [+ value], expr ' +
        'or condition), or forget one.',
      inputSchema: INPUT,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ action, term, table, column, value, expr, condition }, extra) =>
      guarded(async () => {
        const gateway = gw(extra);
        if (action === 'list') return jsonResult({ terms: (await gateway.glossary()).map(shown) });
        if (!term) return error(`${action} needs the term`);
        if (action === 'forget') {
          await gateway.forgetTerm(term);
          return jsonResult({ forgotten: term });
        }
        if (!table) return error('define needs the table the term belongs to');
        const means: GlossaryFields = { table, column, value, expr, condition };
        const result = await gateway.defineTerm(term, means);
        const entry = result.entries.find((e) => e.term.toLowerCase() === term.toLowerCase());
        return jsonResult({ defined: entry ? shown(entry) : term, new: result.created > 0 });
      }),
  );
}
