import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Column } from '@nl2p/envelope';
import { renderExplain } from './fake-explain';
import { FakeParseError, FakePlanError, parseSql, planSql, type PlanContext, type PlannedSql } from './fake-sql';

/** `shared/manager-api/examples`, beside the repository root. */
export const DEFAULT_EXAMPLES_DIR = path.resolve(__dirname, '../../../../../shared/manager-api/examples');

/** One request as it reached the socket; `rawPath` is undecoded, query string included. */
export interface RecordedRequest {
  method: string;
  rawPath: string;
  body: string;
}

export interface FakeManagerOptions {
  /** Where the contract's example payloads live. Default {@link DEFAULT_EXAMPLES_DIR}. */
  examplesDir?: string;
  /** Seed streams from the examples. Default true; functions and syntax are always loaded. */
  seedStreams?: boolean;
}

/** `spec` part of `GET /streams/describe/:name`. */
export interface FakeStreamSpec {
  type: string;
  schema: { columns: Column[] };
  props: Record<string, unknown>;
  shared: boolean;
  decoder: { type: string; props: Record<string, unknown> };
  eventtime?: { column: string; type: string };
  sampler?: Record<string, unknown>;
}

interface FunctionEntry {
  kind: string;
  name: string;
  aliases: string[];
}

interface StoredPipeline {
  spec: Record<string, unknown>;
  /** False for the create-orphans of CONTRACT §5.2 step 8: stored, never built. */
  loaded: boolean;
  stream: string;
  plan: PlannedSql | null;
}

type Failure = number | 'reset';

const SINK_TYPES = new Set(['mqtt', 'nop', 'memory', 'kuksa', 'kura', 'video', 'nng_pubsub']);
const ENCODERS = new Set(['json', 'yajson', 'columnar_json', 'columnar_csv_json', 'none']);

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`${status}: ${body}`);
  }
}

/**
 * In-process stand-in for the veloFlux Manager REST API, faithful to manager-api/CONTRACT.md for
 * streams, functions, syntax and the pipeline create/get/list/delete/explain routes: plain-text
 * errors, the §5.2 validation order, the orphan kept by a failed step-8 create and the busy lock.
 * Everything else answers 501 so a test that strays is obvious.
 */
export class FakeManager {
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** Added before each answer (inside the per-pipeline lock for create/delete). */
  delayMs = 0;

  private readonly examplesDir: string;
  private readonly seedStreams: boolean;
  private readonly functionsJson: unknown;
  private readonly syntaxJson: unknown;
  private readonly functionEntries: FunctionEntry[];
  private server: Server | null = null;
  private streams = new Map<string, FakeStreamSpec>();
  private stored = new Map<string, StoredPipeline>();
  private locks = new Set<string>();
  private failures: Failure[] = [];
  private createRejections: { status: number; body: string }[] = [];
  private orphanNext: string[] = [];
  private busy = new Map<string, number>();
  private creates = new Map<string, number>();
  private created = new Map<string, number>();

  constructor(options: FakeManagerOptions = {}) {
    this.examplesDir = options.examplesDir ?? DEFAULT_EXAMPLES_DIR;
    this.seedStreams = options.seedStreams ?? true;
    this.functionsJson = this.readExample('functions_list.json');
    this.syntaxJson = this.readExample('syntax_capabilities.json');
    this.functionEntries = this.functionsJson as FunctionEntry[];
    this.resetStreams();
  }

  /** Listens on an ephemeral port of 127.0.0.1; resolves with the base URL. */
  async start(): Promise<string> {
    if (this.server) throw new Error('FakeManager already started');
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) this.send(res, 500, `fake manager bug: ${String(err)}`);
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return this.baseUrl;
  }

  get baseUrl(): string {
    if (!this.server) throw new Error('FakeManager not started');
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    // Keep-alive sockets from fetch would otherwise hold close() open.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Back to the seeded state: no pipelines, no recorded requests, no scripted behaviour. */
  reset(): void {
    this.requests.length = 0;
    this.delayMs = 0;
    this.stored.clear();
    this.locks.clear();
    this.failures = [];
    this.createRejections = [];
    this.orphanNext = [];
    this.busy.clear();
    this.creates.clear();
    this.created.clear();
    this.resetStreams();
  }

  /** Registers (or replaces) a `mock` stream with these columns. */
  addStream(name: string, columns: Column[], spec: Partial<FakeStreamSpec> = {}): void {
    this.streams.set(name, {
      type: 'mock',
      props: {},
      shared: false,
      decoder: { type: 'json', props: {} },
      ...spec,
      schema: { columns },
    });
  }

  removeStream(name: string): void {
    this.streams.delete(name);
  }

  /** The next `POST /pipelines` answers `status` with this text body and changes nothing. */
  rejectNextCreate(status: number, body: string): void {
    this.createRejections.push({ status, body });
  }

  /**
   * The next `n` requests, whatever the route, fail: with this HTTP status (plain-text body), or
   * with the socket destroyed before any answer when `'reset'`.
   */
  failNext(n: number, failure: Failure): void {
    for (let i = 0; i < n; i += 1) this.failures.push(failure);
  }

  /** Drops failures queued by {@link failNext} that no request used yet: the outage is over. */
  clearFailures(): void {
    this.failures = [];
  }

  /** The next `times` lock-taking commands (create, delete) on `id` get 409 busy. */
  busyNext(id: string, times = 1): void {
    this.busy.set(id, (this.busy.get(id) ?? 0) + times);
  }

  /**
   * The next create that reaches the build step is stored and then fails with 400 `body`, the
   * orphan of CONTRACT §5.2 step 8 (a sink config error is not rolled back).
   */
  failAfterStoreNextCreate(body = 'mqtt sink requires broker_url'): void {
    this.orphanNext.push(body);
  }

  /** How many `POST /pipelines` requests carried this id (every outcome counts). */
  createCount(id: string): number {
    return this.creates.get(id) ?? 0;
  }

  /** How many `POST /pipelines` with this id succeeded (201): more than one is a duplicate create. */
  createdCount(id: string): number {
    return this.created.get(id) ?? 0;
  }

  /** Every id with at least one successful create, and how many. */
  successfulCreates(): Map<string, number> {
    return new Map(this.created);
  }

  /** Ids in storage, sorted, orphans included. */
  pipelines(): string[] {
    return [...this.stored.keys()].sort();
  }

  // -------------------------------------------------------------------------------------------

  private readExample(file: string): unknown {
    return JSON.parse(readFileSync(path.join(this.examplesDir, file), 'utf8'));
  }

  private resetStreams(): void {
    this.streams.clear();
    if (!this.seedStreams) return;
    const list = this.readExample('streams_list.json') as {
      name: string;
      shared: boolean;
      schema: { columns: Column[] };
    }[];
    for (const s of list) this.addStream(s.name, s.schema.columns, { shared: s.shared });
    for (const file of readdirSync(this.examplesDir)
      .filter((f) => /^stream_describe.*\.json$/.test(f))
      .sort()) {
      const d = this.readExample(file) as { stream: string; spec: FakeStreamSpec };
      this.streams.set(d.stream, d.spec);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const rawPath = req.url ?? '/';
    this.requests.push({ method, rawPath, body });

    const failure = this.failures.shift();
    if (failure === 'reset') {
      req.socket.destroy();
      return;
    }
    if (failure !== undefined) {
      this.send(res, failure, `fake manager: injected HTTP ${failure}`);
      return;
    }

    try {
      const result = await this.route(method, rawPath, body, req.headers['content-type']);
      if (typeof result.body === 'string') this.send(res, result.status, result.body);
      else this.sendJson(res, result.status, result.body);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      this.send(res, err.status, err.body);
    }
  }

  private async route(
    method: string,
    rawPath: string,
    body: string,
    contentType: string | undefined,
  ): Promise<{ status: number; body: unknown }> {
    const pathname = rawPath.split('?')[0];
    let segs: string[];
    try {
      // Split before decoding: an encoded `/` stays inside its segment, as in axum.
      segs = pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw new HttpError(400, `Invalid URL: ${pathname}`);
    }
    const allow = (...methods: string[]): void => {
      if (!methods.includes(method)) throw new HttpError(405, '');
    };
    const [a, b, c] = segs;
    const n = segs.length;

    if (a === 'streams' && n === 1) {
      allow('GET', 'POST');
      if (method === 'POST') return notImplemented();
      await this.pause();
      return { status: 200, body: this.listStreams() };
    }
    if (a === 'streams' && b === 'describe' && n === 3) {
      allow('GET');
      await this.pause();
      const spec = this.streams.get(c);
      if (!spec) throw new HttpError(404, `stream ${c} not found`);
      return { status: 200, body: { stream: c, spec_version: 1, spec } };
    }
    if (a === 'functions' && n === 1) {
      allow('GET');
      await this.pause();
      return { status: 200, body: this.functionsJson };
    }
    if (a === 'functions' && b === 'describe' && n === 3) {
      allow('GET');
      await this.pause();
      const wanted = c.toLowerCase();
      const def = (this.functionsJson as FunctionEntry[]).find(
        (f) => f.name === wanted || f.aliases.some((x) => x.toLowerCase() === wanted),
      );
      if (!def) throw new HttpError(404, `function ${c} not found`);
      return { status: 200, body: def };
    }
    if (a === 'capabilities' && b === 'syntax' && n === 2) {
      allow('GET');
      await this.pause();
      return { status: 200, body: this.syntaxJson };
    }
    if (a === 'pipelines' && n === 1) {
      allow('GET', 'POST');
      if (method === 'POST') return this.createPipeline(body, contentType);
      await this.pause();
      return { status: 200, body: this.listPipelines() };
    }
    if (a === 'pipelines' && n === 2) {
      allow('GET', 'PUT', 'DELETE');
      if (method === 'PUT') return notImplemented();
      if (method === 'DELETE') return this.deletePipeline(b);
      await this.pause();
      const p = this.stored.get(b);
      if (!p) throw new HttpError(404, `pipeline ${b} not found`);
      return { status: 200, body: { id: b, status: 'stopped', spec: p.spec } };
    }
    if (a === 'pipelines' && n === 3 && c === 'explain') {
      allow('GET');
      await this.pause();
      return { status: 200, body: this.explain(b) };
    }
    if (a === 'pipelines' && n === 3 && ['start', 'stop', 'stats', 'buildContext'].includes(c)) {
      return notImplemented();
    }
    throw new HttpError(404, '');
  }

  private listStreams(): unknown[] {
    return [...this.streams.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([name, spec]) => ({ name, shared: spec.shared, schema: spec.schema, shared_stream: null }));
  }

  private listPipelines(): unknown[] {
    return this.pipelines().map((id) => ({ id, status: 'stopped', flow_instance_id: 'default' }));
  }

  /** CONTRACT §5.2, step by step. */
  private async createPipeline(
    body: string,
    contentType: string | undefined,
  ): Promise<{ status: number; body: unknown }> {
    const countedId = peekId(body);
    if (countedId !== null) this.creates.set(countedId, (this.creates.get(countedId) ?? 0) + 1);
    const rejection = this.createRejections.shift();
    if (rejection) throw new HttpError(rejection.status, rejection.body);

    // 1. axum's Json extractor.
    if (!contentType || !/^application\/(.+\+)?json\b/i.test(contentType.trim())) {
      throw new HttpError(415, 'Expected request with `Content-Type: application/json`');
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (err) {
      throw new HttpError(400, `Failed to parse the request body as JSON: ${(err as Error).message}`);
    }
    const req = checkShape(json);

    // 2–3. instance and request sanity.
    if (req.flow_instance_id !== undefined && req.flow_instance_id !== null) {
      const instance = req.flow_instance_id.trim();
      if (instance === '') throw new HttpError(400, 'flow_instance_id must not be empty');
      if (instance !== 'default') throw new HttpError(400, `flow instance ${instance} is not declared by config`);
    }
    const id = req.id;
    if (id.trim() === '') throw new HttpError(400, 'pipeline id must not be empty');
    if (req.sql.trim() === '') throw new HttpError(400, 'pipeline sql must not be empty');
    if (req.sinks.length === 0) throw new HttpError(400, 'pipeline must define at least one sink');
    if (req.options?.data_channel_capacity === 0) {
      throw new HttpError(400, 'options.data_channel_capacity must be greater than 0');
    }

    // 4. per-id lock.
    return this.withLock(id, async () => {
      // 6. parse + stream existence, before anything is stored.
      let parsed;
      try {
        parsed = parseSql(req.sql);
      } catch (err) {
        if (err instanceof FakeParseError) throw new HttpError(400, `parse pipeline ${id} sql: ${err.message}`);
        throw err;
      }
      for (const stream of parsed.streams) {
        if (!this.streams.has(stream)) throw new HttpError(400, `stream ${stream} missing from storage`);
      }

      // 7. persist.
      if (this.stored.has(id)) throw new HttpError(409, `pipeline ${id} already exists`);
      const stream = parsed.streams[0] ?? '';
      const record: StoredPipeline = { spec: normalizeSpec(req), loaded: false, stream, plan: null };
      this.stored.set(id, record);

      // 8. sink/encoder build; failures here leave the stored record behind.
      const orphanBody = this.orphanNext.shift();
      if (orphanBody !== undefined) throw new HttpError(400, orphanBody);
      const sinkError = sinkConfigError(req.sinks);
      if (sinkError) throw new HttpError(400, sinkError);

      // 9. planning; failures are rolled back.
      try {
        const columns = this.streams.get(stream)?.schema.columns ?? [];
        record.plan = planSql(parsed, this.planContext(stream, columns));
      } catch (err) {
        this.stored.delete(id);
        if (err instanceof FakePlanError) {
          throw new HttpError(400, `failed to create pipeline ${id}: pipeline build error: ${err.message}`);
        }
        throw err;
      }
      record.loaded = true;
      this.created.set(id, (this.created.get(id) ?? 0) + 1);
      return { status: 201, body: { id, status: 'stopped' } };
    });
  }

  private async deletePipeline(id: string): Promise<{ status: number; body: unknown }> {
    return this.withLock(id, async () => {
      if (!this.stored.delete(id)) throw new HttpError(404, `pipeline ${id} not found`);
      return { status: 200, body: `pipeline ${id} deleted` };
    });
  }

  private explain(id: string): string {
    const p = this.stored.get(id);
    // Orphans are stored but not loaded in the runtime, and explain reads the runtime.
    if (!p || !p.loaded || !p.plan) throw new HttpError(404, `pipeline ${id} not found`);
    const sinks = (p.spec['sinks'] as { id: string | null; type: string }[]) ?? [];
    const first = sinks[0];
    const sinkId = first?.id ?? `${id}_sink_0`;
    return renderExplain(p.plan, p.stream, sinkId, first?.type.toLowerCase() ?? 'nop', sinks.length);
  }

  private planContext(stream: string, columns: Column[]): PlanContext {
    const functions = new Set<string>();
    const aggregates = new Set<string>();
    const scalar = new Set<string>();
    for (const f of this.functionEntries) {
      for (const name of [f.name, ...f.aliases]) {
        functions.add(name);
        if (f.kind === 'aggregate') aggregates.add(name);
        if (f.kind === 'scalar') scalar.add(name);
      }
    }
    return { stream, columns, functions, aggregates, scalarNames: [...scalar].sort() };
  }

  private async withLock<T>(id: string, run: () => Promise<T>): Promise<T> {
    const busy = this.busy.get(id) ?? 0;
    if (busy > 0) this.busy.set(id, busy - 1);
    if (busy > 0 || this.locks.has(id)) throw new HttpError(409, `pipeline ${id} is busy processing another command`);
    this.locks.add(id);
    try {
      await this.pause();
      return await run();
    } finally {
      this.locks.delete(id);
    }
  }

  private async pause(): Promise<void> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
  }

  private send(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, body === '' ? {} : { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  }

  private sendJson(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

function notImplemented(): never {
  throw new HttpError(501, 'not implemented by FakeManager');
}

interface CreateRequest {
  id: string;
  sql: string;
  flow_instance_id?: string | null;
  sinks: { id?: string | null; type: string; props?: Record<string, unknown>; encoder?: { type?: string } }[];
  options?: { data_channel_capacity?: number; eventtime?: { enabled?: boolean; late_tolerance_ms?: number } };
  sources?: unknown[];
}

const DESERIALIZE = 'Failed to deserialize the JSON body into the target type: ';

/** serde's verdicts, roughly: missing or mistyped fields are 422, like axum's Json extractor. */
function checkShape(json: unknown): CreateRequest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HttpError(422, `${DESERIALIZE}invalid type: expected struct CreatePipelineRequest at line 1 column 1`);
  }
  const o = json as Record<string, unknown>;
  for (const field of ['id', 'sql'] as const) {
    if (!(field in o)) throw new HttpError(422, `${DESERIALIZE}missing field \`${field}\` at line 1 column 1`);
    if (typeof o[field] !== 'string') {
      throw new HttpError(422, `${DESERIALIZE}${field}: invalid type: expected a string at line 1 column 1`);
    }
  }
  const sinks = o['sinks'] ?? [];
  if (!Array.isArray(sinks)) throw new HttpError(422, `${DESERIALIZE}sinks: invalid type: expected a sequence`);
  sinks.forEach((s: unknown, i) => {
    if (typeof s !== 'object' || s === null || typeof (s as { type?: unknown }).type !== 'string') {
      throw new HttpError(422, `${DESERIALIZE}sinks[${i}]: missing field \`type\` at line 1 column 1`);
    }
  });
  return { ...(o as unknown as CreateRequest), sinks: sinks as CreateRequest['sinks'] };
}

function peekId(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** CONTRACT §6, the subset a test can reach. */
function sinkConfigError(sinks: CreateRequest['sinks']): string | null {
  for (const sink of sinks) {
    const type = sink.type.toLowerCase();
    const props = sink.props ?? {};
    if (!SINK_TYPES.has(type)) return `unsupported sink type: ${sink.type}`;
    const encoder = sink.encoder?.type ?? 'json';
    if (!ENCODERS.has(encoder)) return `encoder kind \`${encoder}\` not registered`;
    if (type === 'mqtt') {
      if (!props['broker_url'] && !props['connector_key']) return 'mqtt sink requires broker_url';
      if (!props['topic']) return 'mqtt sink requires topic';
    }
    if (type === 'memory' && !props['topic']) return 'memory sink requires topic';
    if (type === 'nng_pubsub') {
      if (!props['url']) return 'nng_pubsub sink requires url';
      if (!props['topic']) return 'nng_pubsub sink requires topic';
    }
  }
  return null;
}

/** The stored form `GET /pipelines/:id` returns (CONTRACT §5.4): defaults filled, props sorted. */
function normalizeSpec(req: CreateRequest): Record<string, unknown> {
  return {
    id: req.id,
    flow_instance_id: req.flow_instance_id?.trim() || 'default',
    sql: req.sql,
    sources: req.sources ?? [],
    sinks: req.sinks.map((s) => ({
      id: s.id ?? null,
      type: s.type,
      props: sortKeys(s.props ?? {}),
      common_sink_props: { batch_count: null, batch_duration: null },
      encoder: { type: s.encoder?.type ?? 'json', props: {} },
    })),
    options: {
      data_channel_capacity: req.options?.data_channel_capacity ?? 16,
      eventtime: {
        enabled: req.options?.eventtime?.enabled ?? false,
        late_tolerance_ms: req.options?.eventtime?.late_tolerance_ms ?? 0,
      },
    },
  };
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}
