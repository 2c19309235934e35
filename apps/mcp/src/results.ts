import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '@nl2p/gateway-client';

export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** A product error reaches the agent as the product words it, marked as a tool error. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof GatewayError) {
      return { isError: true, content: [{ type: 'text', text: err.detail }] };
    }
    throw err;
  }
}
