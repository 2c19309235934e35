import { createHash } from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import { InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Gateway, GatewayError } from '@nl2p/gateway-client';
import { createMcpServer } from './server';

export interface McpHttpOptions {
  /** The gateway whose REST API the tools call. */
  gatewayUrl: string;
  /** The address the server listens on (DNS-rebinding protection is on for loopback hosts). */
  host?: string;
  /** Host headers accepted when listening on all interfaces. */
  allowedHosts?: string[];
  /** How long ask/answer hold for a turn. */
  waitMs?: number;
  /** How long the gateway's verdict on a key is trusted before it is asked again. */
  keyCheckTtlMs?: number;
}

/**
 * API keys are the gateway's: a key is good here when the gateway takes it (one cheap
 * authenticated read, remembered for a minute), so the MCP server holds no key list of its own
 * and an agent gets exactly its tenant's sessions.
 */
class GatewayKeyVerifier implements OAuthTokenVerifier {
  private readonly verdicts = new Map<string, number>();

  constructor(
    private readonly gateway: Gateway,
    private readonly ttlMs: number,
  ) {}

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const digest = createHash('sha256').update(token).digest('hex');
    const until = this.verdicts.get(digest);
    if (until === undefined || until < Date.now()) {
      if (!(await this.accepted(token)))
        throw new InvalidTokenError('the nl2pipeline gateway does not accept this API key');
      this.verdicts.set(digest, Date.now() + this.ttlMs);
    }
    return this.info(token);
  }

  /** When the gateway runs without auth (local use), a request without a key is let through. */
  async anonymous(): Promise<AuthInfo | null> {
    return (await this.accepted(undefined)) ? this.info('') : null;
  }

  private info(token: string): AuthInfo {
    return {
      token,
      clientId: 'nl2pipeline-api-key',
      scopes: [],
      expiresAt: Math.floor((Date.now() + this.ttlMs) / 1000),
    };
  }

  private async accepted(token: string | undefined): Promise<boolean> {
    try {
      await this.gateway.withKey(token).listSessions({ limit: 1 });
      return true;
    } catch (err) {
      if (err instanceof GatewayError && (err.status === 401 || err.status === 403)) return false;
      throw new ServerError(err instanceof Error ? err.message : 'the gateway could not check the key');
    }
  }
}

/**
 * The MCP server over Streamable HTTP at `/mcp`, stateless: every POST gets its own server and
 * transport bound to the caller's key, so any number of replicas can serve any request.
 */
export function createMcpHttpApp(options: McpHttpOptions): Express {
  const app = createMcpExpressApp({ host: options.host ?? '127.0.0.1', allowedHosts: options.allowedHosts });
  const gateway = new Gateway({ baseUrl: options.gatewayUrl, userAgent: 'nl2pipeline-mcp' });
  const verifier = new GatewayKeyVerifier(gateway, options.keyCheckTtlMs ?? 60_000);
  const bearer = requireBearerAuth({ verifier });
  const auth: RequestHandler = (req, res, next) => {
    if (req.headers.authorization) return bearer(req, res, next);
    verifier.anonymous().then(
      (info) => {
        if (!info) return bearer(req, res, next); // answers 401 with WWW-Authenticate
        req.auth = info;
        next();
      },
      (err: unknown) => {
        res.status(503).json({ error: 'server_error', error_description: (err as Error).message });
      },
    );
  };

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.post('/mcp', auth, (req, res) => {
    const server = createMcpServer({ gateway: (token) => gateway.withKey(token), waitMs: options.waitMs });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res, req.body))
      .catch((err: unknown) => {
        if (!res.headersSent) {
          res.status(500).json({
            jsonrpc: '2.0',
            error: { code: -32603, message: err instanceof Error ? err.message : 'internal error' },
            id: null,
          });
        }
      });
  });

  // Stateless: no standalone server-to-client stream and no session to delete.
  const notAllowed: RequestHandler = (_req, res) => {
    res
      .status(405)
      .set('allow', 'POST')
      .json({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this server is stateless, POST /mcp' },
        id: null,
      });
  };
  app.get('/mcp', auth, notAllowed);
  app.delete('/mcp', auth, notAllowed);
  return app;
}
