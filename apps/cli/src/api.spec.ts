import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SessionEvent } from '@nl2p/envelope';
import { CliError, GatewayApi, StoppedError } from './api';

const ID = 'c'.repeat(32);

/** A stand-in gateway: each test says how it answers. */
class FakeGateway {
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(500).end();
  readonly seen: IncomingMessage[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.seen.push(req);
      this.handler(req, res);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('GatewayApi', () => {
  const gw = new FakeGateway();
  let api: GatewayApi;

  beforeAll(async () => {
    api = new GatewayApi(`${await gw.start()}/`, 'secret');
  });
  afterAll(() => gw.stop());
  beforeEach(() => (gw.seen.length = 0));

  it('cancels through the cancel endpoint, and tells a gateway without one from a finished turn', async () => {
    gw.handler = (req, res) => json(res, 200, { status: 'cancelled', url: req.url });
    await expect(api.cancelRunning(ID)).resolves.toBe('cancelled');
    expect(gw.seen[0].method).toBe('POST');
    expect(gw.seen[0].url).toBe(`/v1/sessions/${ID}/turns/current/cancel`);
    expect(gw.seen[0].headers.authorization).toBe('Bearer secret');

    gw.handler = (req, res) => json(res, 404, { statusCode: 404, message: `Cannot POST ${req.url}` });
    await expect(api.cancelRunning(ID)).resolves.toBe('unsupported');
    gw.handler = (_req, res) => json(res, 409, { statusCode: 409, message: 'no turn is running' });
    await expect(api.cancelRunning(ID)).resolves.toBe('not_running');
  });

  it('turns HTTP errors into one-line messages', async () => {
    gw.handler = (_req, res) =>
      json(res, 400, { statusCode: 400, message: ['text must be a string', 'wait must be a boolean'] });
    await expect(api.postTurn(ID, { text: 'x' })).rejects.toThrow(
      `gateway answered 400 on POST /v1/sessions/${ID}/turns: text must be a string; wait must be a boolean`,
    );
    gw.handler = (_req, res) => json(res, 401, { statusCode: 401, message: 'a valid API key is required' });
    await expect(api.getSession(ID)).rejects.toThrow(
      'the gateway refused the request (401): a valid API key is required; set --api-key or NL2P_API_KEY',
    );
    gw.handler = (_req, res) => res.writeHead(429, { 'retry-after': '7' }).end('{}');
    await expect(api.getSession(ID)).rejects.toThrow('the gateway is rate limiting this key: retry in 7 s');
  });

  it('follows a turn over SSE and resumes a dropped stream with Last-Event-ID', async () => {
    gw.handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!req.headers['last-event-id']) {
        // Drops the connection after the first delta.
        res.write(
          'id: 1-0\nevent: node_start\ndata: {"type":"node_start","turn_id":4,"node":"draft_sql","attempt":0}\n\n',
        );
        res.end(
          'id: 1-1\nevent: draft_delta\ndata: {"type":"draft_delta","turn_id":4,"node":"draft_sql","delta":"SELECT "}\n\n',
        );
        return;
      }
      res.write('id: 1-2\nevent: heartbeat\ndata: {"at":"now"}\n\n');
      res.write(
        'id: 1-3\nevent: draft_delta\ndata: {"type":"draft_delta","turn_id":4,"node":"draft_sql","delta":"1"}\n\n',
      );
      res.write('id: 1-4\nevent: end\ndata: {"turn_id":4,"status":"waiting"}\n\n');
    };
    const events: SessionEvent[] = [];
    const ended = await api.followTurn(ID, 4, (e) => events.push(e), { signal: new AbortController().signal });
    expect(ended).toEqual({ status: 'waiting' });
    expect(events.map((e) => (e.type === 'draft_delta' ? e.delta : e.type))).toEqual(['node_start', 'SELECT ', '1']);
    expect(gw.seen.map((r) => [r.url, r.headers['last-event-id']])).toEqual([
      [`/v1/sessions/${ID}/events?turn=4`, undefined],
      [`/v1/sessions/${ID}/events?turn=4`, '1-1'],
    ]);
  });

  it('stops following when the signal fires (Ctrl-C)', async () => {
    gw.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    };
    const controller = new AbortController();
    const following = api.followTurn(ID, 1, () => undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(new StoppedError('interrupt')), 50);
    await expect(following).rejects.toEqual(new StoppedError('interrupt'));
  });

  it('says so in one line when nothing listens', async () => {
    // A port nobody listens on: bind one, then close it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const down = new GatewayApi(`http://127.0.0.1:${port}`);
    const err = await down.createSession().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toBe(
      `cannot reach the gateway at http://127.0.0.1:${port} (ECONNREFUSED): is it running? (set --url or NL2P_URL)`,
    );
  });
});
