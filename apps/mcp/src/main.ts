import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Gateway } from '@nl2p/gateway-client';
import { createMcpHttpApp } from './http';
import { createMcpServer } from './server';

const USAGE = `nl2pipeline-mcp: the nl2pipeline agent as an MCP server

  nl2pipeline-mcp            stdio (for a client that starts it: Claude Desktop, an IDE, an agent)
  nl2pipeline-mcp --http     Streamable HTTP at http://MCP_HOST:MCP_PORT/mcp

environment
  NL2P_URL        the gateway (default http://127.0.0.1:3000)
  NL2P_API_KEY    stdio: the gateway API key to use (HTTP: each client sends its own as a Bearer token)
  MCP_HOST        HTTP: listen address (default 127.0.0.1)
  MCP_PORT        HTTP: port (default 3100)
  MCP_ALLOWED_HOSTS  HTTP: comma-separated Host headers accepted when listening on all interfaces
  MCP_WAIT_MS     how long ask/answer hold for a turn (default 50000)
`;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`nl2pipeline-mcp: ${name} must be a positive integer, got '${raw}'\n`);
    process.exit(2);
  }
  return n;
}

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = argv.filter((a) => a !== '--http');
  if (unknown.length) {
    process.stderr.write(`nl2pipeline-mcp: unknown argument ${unknown[0]}\n\n${USAGE}`);
    process.exit(2);
  }
  const gatewayUrl = process.env.NL2P_URL || 'http://127.0.0.1:3000';
  const waitMs = positiveInt('MCP_WAIT_MS', 50_000);

  if (argv.includes('--http')) {
    const host = process.env.MCP_HOST || '127.0.0.1';
    const port = positiveInt('MCP_PORT', 3100);
    const allowedHosts = process.env.MCP_ALLOWED_HOSTS?.split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    const app = createMcpHttpApp({ gatewayUrl, host, allowedHosts, waitMs });
    const server = app.listen(port, host, () => {
      process.stderr.write(`nl2pipeline-mcp: Streamable HTTP on http://${host}:${port}/mcp (gateway ${gatewayUrl})\n`);
    });
    const stop = () => server.close(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    return;
  }

  // stdio: stdout carries the protocol, so anything for people goes to stderr.
  const gateway = new Gateway({
    baseUrl: gatewayUrl,
    apiKey: process.env.NL2P_API_KEY || undefined,
    userAgent: 'nl2pipeline-mcp',
  });
  const server = createMcpServer({ gateway: () => gateway, waitMs });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`nl2pipeline-mcp: serving on stdio (gateway ${gatewayUrl})\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`nl2pipeline-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
