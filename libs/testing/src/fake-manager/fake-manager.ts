import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Column } from '@nl2p/envelope';
import { physicalProcessorIds, renderExplain, type ExplainSink } from './fake-explain';
import { FakeRuntime } from './fake-runtime';
import {
  FakeParseError,
  FakePlanError,
  parseSql,
  planSql,
  type ParsedSql,
  type PlanContext,
  type PlannedSql,
} from './fake-sql';

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
  streams: string[];
  plan: PlannedSql | null;
  sinks: ExplainSink[];
  /** Stored desired state (`GET /pipelines/:id`). */
  desired: 'running' | 'stopped';
  /** Runtime state (`GET /pipelines`, stats). */
  running: boolean;
  /** While running: what it has taken from its stream's topic and done with it. */
  runtime?: FakeRuntime;
}

type Failure = number | 'reset';

const SINK_TYPES = new Set(['mqtt', 'nop', 'memory', 'kuksa', 'kura', 'video', 'nng_pubsub']);
const ENCODERS = new Set(['json', 'yajson', 'columnar_json', 'columnar_csv_json', 'none']);
const STREAM_TYPES = new Set(['mqtt', 'mock', 'history', 'memory', 'nng_pubsub', 'video']);
const DATA_TYPES: Record<string, string> = {
  null: 'null',
  bool: 'bool',
  boolean: 'bool',
  int8: 'int8',
  int16: 'int16',
  int32: 'int32',
  int64: 'int64',
  uint8: 'uint8',
  uint16: 'uint16',
  uint32: 'uint32',
  uint64: 'uint64',
  float32: 'float32',
  float64: 'float64',
  string: 'string',
  bytes: 'bytes',
  timestamp: 'timestamp',
  list: 'list',
  struct: 'struct',
};

const TEXT = 'text/plain; charset=utf-8';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** axum's own 404/405 carry no content type; 405 carries `allow`. */
    readonly headers: Record<string, string> = { 'content-type': TEXT },
  ) {
    super(`${status}: ${body}`);
  }
}

type Answer = { status: number; body: unknown; contentType?: string };

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
        if (!res.headersSent) this.send(res, 500, `fake manager bug: ${String(err)}`, { 'content-type': TEXT });
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
    await this.stopRuntimes();
    const server = this.server;
    if (!server) return;
    this.server = null;
    // Keep-alive sockets from fetch would otherwise hold close() open.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Back to the seeded state: no pipelines, no recorded requests, no scripted behaviour. */
  reset(): void {
    void this.stopRuntimes();
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

  /** Stream names, sorted. */
  streamNames(): string[] {
    return [...this.streams.keys()].sort();
  }

  private async stopRuntimes(): Promise<void> {
    await Promise.all([...this.stored.values()].map((p) => p.runtime?.stop() ?? Promise.resolve()));
  }

  /**
   * Starts the pipeline's runtime: an MQTT stream's source subscribes to its topic on its broker
   * (a started pipeline reading any other kind of stream takes no rows, as a mock source fed by
   * no one).
   */
  private async startRuntime(p: StoredPipeline): Promise<void> {
    if (p.running || !p.plan) return;
    const stream = this.streams.get(p.plan.stream);
    const runtime = new FakeRuntime(String(p.spec['sql']), p.plan, physicalProcessorIds(p.plan, p.sinks));
    p.runtime = runtime;
    if (stream?.type === 'mqtt') {
      await runtime.start(asOptionalText(stream.props['broker_url']), asOptionalText(stream.props['topic']));
    }
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
      this.send(res, failure, `fake manager: injected HTTP ${failure}`, { 'content-type': TEXT });
      return;
    }

    try {
      const result = await this.route(method, rawPath, body, req.headers['content-type']);
      if (typeof result.body === 'string') {
        this.send(res, result.status, result.body, { 'content-type': result.contentType ?? TEXT });
      } else {
        this.send(res, result.status, JSON.stringify(result.body), { 'content-type': 'application/json' });
      }
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      this.send(res, err.status, err.body, err.headers);
    }
  }

  private async route(method: string, rawPath: string, body: string, contentType: string | undefined): Promise<Answer> {
    const [pathname, query = ''] = rawPath.split('?', 2);
    let segs: string[];
    try {
      // Split before decoding: an encoded `/` stays inside its segment, as in axum.
      segs = pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      throw new HttpError(400, `Invalid URL: ${pathname}`);
    }
    // axum: a known path with another method is 405 with `allow` (GET brings HEAD), no body.
    const allow = (...methods: string[]): void => {
      if (methods.includes(method) || (method === 'HEAD' && methods.includes('GET'))) return;
      const allowed = methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(',');
      throw new HttpError(405, '', { allow: allowed });
    };
    const [a, b, c] = segs;
    const n = segs.length;

    if (a === 'streams' && n === 1) {
      allow('POST', 'GET');
      if (method === 'POST') return this.createStream(body, contentType);
      await this.pause();
      return { status: 200, body: this.listStreams() };
    }
    if (a === 'streams' && n === 2) {
      allow('DELETE');
      return this.deleteStream(b);
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
      // An exact name first: `ceiling` is its own entry although `ceil` lists it as an alias.
      const def =
        this.functionEntries.find((f) => f.name === wanted) ??
        this.functionEntries.find((f) => f.aliases.some((x) => x.toLowerCase() === wanted));
      if (!def) throw new HttpError(404, `function ${c} not found`);
      return { status: 200, body: def };
    }
    if (a === 'capabilities' && b === 'syntax' && n === 2) {
      allow('GET');
      await this.pause();
      return { status: 200, body: this.syntaxJson };
    }
    if (a === 'metrics' && n === 1) {
      allow('GET');
      // The recorded Manager had no metric registered yet: an empty Prometheus exposition.
      return { status: 200, body: '', contentType: 'text/plain; version=0.0.4' };
    }
    if ((a === 'memory' && b === 'topics' && n === 2) || (a === 'mqtt' && b === 'clients' && n === 2)) {
      allow('POST', 'GET');
      if (method === 'POST') return notImplemented();
      return { status: 200, body: [] };
    }
    if (a === 'pipelines' && n === 1) {
      allow('POST', 'GET');
      if (method === 'POST') return this.createPipeline(body, contentType);
      await this.pause();
      return { status: 200, body: this.listPipelines() };
    }
    if (a === 'pipelines' && n === 2) {
      allow('GET', 'PUT', 'DELETE');
      if (method === 'PUT') return this.upsertPipeline(b, body, contentType);
      if (method === 'DELETE') return this.deletePipeline(b);
      await this.pause();
      const p = this.stored.get(b);
      if (!p) throw new HttpError(404, `pipeline ${b} not found`);
      return { status: 200, body: { id: b, status: p.desired, spec: p.spec } };
    }
    if (a === 'pipelines' && n === 3 && c === 'explain') {
      allow('GET');
      await this.pause();
      return { status: 200, body: this.explain(b) };
    }
    if (a === 'pipelines' && n === 3 && c === 'start') {
      allow('POST');
      return this.withLock(b, async () => {
        const p = this.loaded(b);
        await this.startRuntime(p);
        p.desired = 'running';
        p.running = true;
        return { status: 200, body: `pipeline ${b} started` };
      });
    }
    if (a === 'pipelines' && n === 3 && c === 'stop') {
      allow('POST');
      const params = new URLSearchParams(query);
      parseTimeout(params);
      return this.withLock(b, async () => {
        const mode = params.get('mode') ?? '';
        if (!['', 'quick', 'graceful'].includes(mode.toLowerCase())) {
          throw new HttpError(400, `unsupported stop mode: ${mode}`);
        }
        const p = this.loaded(b);
        await p.runtime?.stop();
        p.runtime = undefined;
        p.desired = 'stopped';
        p.running = false;
        return { status: 200, body: `pipeline ${b} stopped` };
      });
    }
    if (a === 'pipelines' && n === 3 && c === 'stats') {
      allow('GET');
      parseTimeout(new URLSearchParams(query));
      return this.withLock(b, async () => {
        const p = this.loaded(b);
        if (!p.running || !p.plan) {
          throw new HttpError(
            400,
            `failed to collect pipeline ${b} stats: pipeline runtime error: pipeline ${b} is not running`,
          );
        }
        // Counters in plan order; the real order is the runtime's HashMap order.
        const stats = { records_in: 0, records_out: 0, error_count: 0, last_error: null };
        return {
          status: 200,
          body:
            p.runtime?.stats() ??
            physicalProcessorIds(p.plan, p.sinks).map((processor_id) => ({ processor_id, stats })),
        };
      });
    }
    throw new HttpError(404, '', {});
  }

  private listStreams(): unknown[] {
    return [...this.streams.entries()]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([name, spec]) => streamInfo(name, spec));
  }

  private listPipelines(): unknown[] {
    return this.pipelines().map((id) => ({
      id,
      status: this.stored.get(id)?.running ? 'running' : 'stopped',
      flow_instance_id: 'default',
    }));
  }

  /** CONTRACT §2.3 in the order the recorded answers show. */
  private async createStream(body: string, contentType: string | undefined): Promise<Answer> {
    const o = readJsonObject(body, contentType, 'CreateStreamRequest');
    for (const field of ['name', 'type'] as const) {
      if (!(field in o))
        throw new HttpError(422, `${DESERIALIZE}missing field \`${field}\` at line 1 column ${body.length}`);
    }
    const name = String(o['name']).trim();
    const type = String(o['type']).toLowerCase();
    if (name === '') throw new HttpError(400, 'stream name must not be empty');
    const schema = (o['schema'] ?? { type: 'json', props: {} }) as { type?: string; props?: Record<string, unknown> };
    if (schema.type !== 'json') throw new HttpError(400, `schema type \`${String(schema.type)}\` not registered`);
    const rawColumns = schema.props?.['columns'];
    if (!Array.isArray(rawColumns)) throw new HttpError(400, 'invalid json schema: missing field `columns`');
    const columns = rawColumns.map((col) => canonicalColumn(col as RawColumn));
    if (!STREAM_TYPES.has(type)) throw new HttpError(400, `unsupported stream type: ${String(o['type'])}`);
    const props = (o['props'] ?? {}) as Record<string, unknown>;
    let outProps: Record<string, unknown> = {};
    if (type === 'mqtt') {
      const key = typeof props['connector_key'] === 'string' ? props['connector_key'].trim() : '';
      if (!props['broker_url'] && key === '') throw new HttpError(400, 'mqtt stream requires broker_url');
      if (!props['topic']) throw new HttpError(400, 'mqtt stream requires topic');
      outProps = sortKeys({
        ...(props['broker_url'] ? { broker_url: props['broker_url'] } : {}),
        ...(props['client_id'] !== undefined ? { client_id: props['client_id'] } : {}),
        ...(key ? { connector_key: key } : {}),
        qos: props['qos'] ?? 0,
        topic: props['topic'],
      });
    } else if (type === 'memory') {
      if (!props['topic']) throw new HttpError(400, 'memory stream requires topic');
      throw new HttpError(400, `memory topic \`${asText(props['topic'])}\` not declared`);
    } else if (type !== 'mock') {
      outProps = sortKeys(props);
    }
    const decoder = (o['decoder'] ?? { type: 'json', props: {} }) as { type?: string; props?: Record<string, unknown> };
    if (decoder.type !== 'json') throw new HttpError(400, `decoder kind \`${String(decoder.type)}\` not registered`);
    if (this.streams.has(name)) throw new HttpError(409, `stream ${name} already exists`);
    const spec: FakeStreamSpec = {
      type,
      schema: { columns },
      props: outProps,
      shared: o['shared'] === true,
      decoder: { type: 'json', props: decoder.props ?? {} },
      ...(o['eventtime'] ? { eventtime: o['eventtime'] as FakeStreamSpec['eventtime'] } : {}),
      ...(o['sampler'] ? { sampler: o['sampler'] as FakeStreamSpec['sampler'] } : {}),
    };
    this.streams.set(name, spec);
    return { status: 201, body: streamInfo(name, spec) };
  }

  /** CONTRACT §2.4: only pipelines loaded in the runtime hold a stream; orphans do not. */
  private async deleteStream(name: string): Promise<Answer> {
    const users = [...this.stored.entries()]
      .filter(([, p]) => p.loaded && p.streams.includes(name))
      .map(([id]) => id)
      .sort();
    if (users.length > 0) throw new HttpError(409, `stream ${name} still referenced by pipelines: ${users.join(', ')}`);
    if (!this.streams.delete(name)) {
      throw new HttpError(
        500,
        `stream ${name} deleted in runtime but failed to remove from storage: not found: ${name}`,
      );
    }
    return { status: 200, body: `stream ${name} deleted` };
  }

  /** CONTRACT §5.2, step by step, as the recorded answers show it. */
  private async createPipeline(body: string, contentType: string | undefined): Promise<Answer> {
    const countedId = peekId(body);
    if (countedId !== null) this.creates.set(countedId, (this.creates.get(countedId) ?? 0) + 1);
    const rejection = this.createRejections.shift();
    if (rejection) throw new HttpError(rejection.status, rejection.body);

    // 1. axum's Json extractor.
    const req = checkShape(readJsonObject(body, contentType, 'CreatePipelineRequest'), body);

    // 2–3. instance and request sanity.
    checkInstance(req.flow_instance_id);
    const id = req.id;
    if (id.trim() === '') throw new HttpError(400, 'pipeline id must not be empty');
    validateRequest(req);

    // 4. per-id lock.
    return this.withLock(id, async () => {
      // 6. parse + stream existence (and the mqtt props decode), before anything is stored.
      const parsed = this.parse(id, req);

      // 7. persist.
      if (this.stored.has(id)) throw new HttpError(409, `pipeline ${id} already exists`);
      const record: StoredPipeline = {
        spec: normalizeSpec(req),
        loaded: false,
        streams: parsed.streams,
        plan: null,
        sinks: explainSinks(id, req.sinks),
        desired: 'stopped',
        running: false,
      };
      this.stored.set(id, record);

      // 8. sink/encoder/output/source build; failures here leave the stored record behind.
      const orphanBody = this.orphanNext.shift();
      if (orphanBody !== undefined) throw new HttpError(400, orphanBody);
      const buildError = definitionError(req, parsed.streams);
      if (buildError) throw new HttpError(400, buildError);

      // 9. planning; failures are rolled back.
      try {
        record.plan = this.plan(parsed);
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

  /** CONTRACT §5.5: validated by planning before the old pipeline is replaced; 200 either way. */
  private async upsertPipeline(id: string, body: string, contentType: string | undefined): Promise<Answer> {
    const o = readJsonObject(body, contentType, 'UpsertPipelineRequest');
    const trimmed = id.trim();
    const req = checkShape({ ...o, id: trimmed }, body);
    return this.withLock(trimmed, async () => {
      validateRequest(req);
      const parsed = this.parse(trimmed, req);
      let plan: PlannedSql;
      try {
        plan = this.plan(parsed);
      } catch (err) {
        if (err instanceof FakePlanError)
          throw new HttpError(400, `invalid pipeline spec: pipeline build error: ${err.message}`);
        throw err;
      }
      const old = this.stored.get(trimmed);
      this.stored.delete(trimmed);
      const buildError = definitionError(req, parsed.streams);
      if (buildError) throw new HttpError(400, `failed to create pipeline ${trimmed}: ${buildError}`);
      const desired = old?.desired ?? 'stopped';
      this.stored.set(trimmed, {
        spec: normalizeSpec(req),
        loaded: true,
        streams: parsed.streams,
        plan,
        sinks: explainSinks(trimmed, req.sinks),
        desired,
        running: desired === 'running',
      });
      return { status: 200, body: { id: trimmed, status: desired } };
    });
  }

  private parse(id: string, req: CreateRequest): ParsedSql {
    let parsed: ParsedSql;
    try {
      parsed = parseSql(req.sql);
    } catch (err) {
      if (err instanceof FakeParseError) throw new HttpError(400, `parse pipeline ${id} sql: ${err.message}`);
      throw err;
    }
    for (const stream of parsed.streams) {
      if (!this.streams.has(stream)) throw new HttpError(400, `stream ${stream} missing from storage`);
    }
    const decodeError = mqttPropsDecodeError(req.sinks);
    if (decodeError) {
      throw new HttpError(
        500,
        `failed to inspect pipeline ${id} sink props: decode pipeline ${id} mqtt sink props: ${decodeError}`,
      );
    }
    return parsed;
  }

  private plan(parsed: ParsedSql): PlannedSql {
    const stream = parsed.streams[0] ?? '';
    const columns = this.streams.get(stream)?.schema.columns ?? [];
    return planSql(parsed, this.planContext(stream, columns));
  }

  private async deletePipeline(id: string): Promise<Answer> {
    return this.withLock(id, async () => {
      const p = this.stored.get(id);
      if (!p) throw new HttpError(404, `pipeline ${id} not found`);
      await p.runtime?.stop();
      this.stored.delete(id);
      return { status: 200, body: `pipeline ${id} deleted` };
    });
  }

  /** A pipeline loaded in the runtime; unknown ids and create-orphans are 404. */
  private loaded(id: string): StoredPipeline {
    const p = this.stored.get(id);
    if (!p || !p.loaded) throw new HttpError(404, `pipeline ${id} not found`);
    return p;
  }

  private explain(id: string): string {
    const p = this.loaded(id);
    return renderExplain(p.plan as PlannedSql, p.sinks);
  }

  private planContext(stream: string, columns: Column[]): PlanContext {
    const functions = new Set<string>();
    const aggregates = new Set<string>();
    const stateful = new Set<string>();
    const scalar = new Set<string>();
    for (const f of this.functionEntries) {
      for (const name of [f.name, ...f.aliases]) {
        functions.add(name);
        if (f.kind === 'aggregate') aggregates.add(name);
        if (f.kind === 'stateful') stateful.add(name);
        if (f.kind === 'scalar') scalar.add(name);
      }
    }
    return { stream, columns, functions, aggregates, stateful, scalarNames: [...scalar].sort() };
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

  private send(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
    res.writeHead(status, headers);
    res.end(body);
  }
}

function notImplemented(): never {
  throw new HttpError(501, 'not implemented by FakeManager');
}

interface SinkRequest {
  id?: string | null;
  type: string;
  props?: Record<string, unknown>;
  common_sink_props?: { batch_count?: number | null; batch_duration?: number | null };
  encoder?: { type?: string; props?: Record<string, unknown>; transform?: unknown };
  output?: { mode?: string; delta?: unknown; omit_if_empty?: boolean };
}

interface CreateRequest {
  id: string;
  sql: string;
  flow_instance_id?: string | null;
  sinks: SinkRequest[];
  options?: { data_channel_capacity?: number; eventtime?: { enabled?: boolean; late_tolerance_ms?: number } };
  sources?: { stream: string; input?: unknown }[];
}

interface RawColumn {
  name: string;
  data_type: string;
  fields?: RawColumn[];
  element?: RawColumn;
}

const DESERIALIZE = 'Failed to deserialize the JSON body into the target type: ';

/** axum's Json extractor: 415 without a JSON content type, 400 for bad JSON (serde's words). */
function readJsonObject(body: string, contentType: string | undefined, target: string): Record<string, unknown> {
  if (!contentType || !/^application\/(.+\+)?json\b/i.test(contentType.trim())) {
    throw new HttpError(415, 'Expected request with `Content-Type: application/json`');
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, `Failed to parse the request body as JSON: ${serdeSyntaxError(body)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new HttpError(422, `${DESERIALIZE}invalid type: expected struct ${target} at line 1 column 1`);
  }
  return json as Record<string, unknown>;
}

/** serde_json's message for the first syntax error, for the shapes tests send. */
function serdeSyntaxError(body: string): string {
  const text = body.trimStart();
  const offset = body.length - text.length;
  for (const literal of ['null', 'true', 'false']) {
    if (text[0] !== literal[0]) continue;
    let i = 1;
    while (i < literal.length && text[i] === literal[i]) i += 1;
    return `expected ident at line 1 column ${offset + i + 1}`;
  }
  if (text === '') return 'EOF while parsing a value at line 1 column 0';
  return `expected value at line 1 column ${offset + 1}`;
}

/** serde's verdicts on the create body: missing or mistyped fields are 422. */
function checkShape(o: Record<string, unknown>, body: string): CreateRequest {
  for (const field of ['id', 'sql'] as const) {
    if (!(field in o))
      throw new HttpError(422, `${DESERIALIZE}missing field \`${field}\` at line 1 column ${body.length}`);
    if (typeof o[field] !== 'string') {
      throw new HttpError(422, `${DESERIALIZE}${field}: invalid type: expected a string at line 1 column 1`);
    }
  }
  const sinks = o['sinks'] ?? [];
  if (!Array.isArray(sinks)) throw new HttpError(422, `${DESERIALIZE}sinks: invalid type: expected a sequence`);
  sinks.forEach((s: unknown, i) => {
    if (typeof s !== 'object' || s === null || typeof (s as { type?: unknown }).type !== 'string') {
      const column = endOfArrayElement(body, 'sinks', i);
      throw new HttpError(422, `${DESERIALIZE}sinks[${i}]: missing field \`type\` at line 1 column ${column}`);
    }
  });
  return { ...(o as unknown as CreateRequest), sinks: sinks as SinkRequest[] };
}

/** 1-based column just after element `index` of the top-level array `key` (single-line bodies). */
function endOfArrayElement(body: string, key: string, index: number): number {
  const at = body.indexOf(`"${key}"`);
  let i = body.indexOf('[', at) + 1;
  let depth = 0;
  let element = 0;
  let inString = false;
  for (; i < body.length; i += 1) {
    const c = body[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0 && element === index) return i + 1;
    } else if (c === ',' && depth === 0) element += 1;
  }
  return body.length;
}

function checkInstance(instanceId: string | null | undefined): void {
  if (instanceId === undefined || instanceId === null) return;
  const instance = instanceId.trim();
  if (instance === '') throw new HttpError(400, 'flow_instance_id must not be empty');
  if (instance !== 'default') throw new HttpError(400, `flow instance ${instance} is not declared by config`);
}

function validateRequest(req: CreateRequest): void {
  if (req.sql.trim() === '') throw new HttpError(400, 'pipeline sql must not be empty');
  if (req.sinks.length === 0) throw new HttpError(400, 'pipeline must define at least one sink');
  if (req.options?.data_channel_capacity === 0) {
    throw new HttpError(400, 'options.data_channel_capacity must be greater than 0');
  }
}

function peekId(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** serde's `invalid type` message for a JSON value where `expected` was wanted. */
function serdeTypeError(value: unknown, expected: string): string {
  let got: string;
  if (typeof value === 'string') got = `string ${JSON.stringify(value)}`;
  else if (typeof value === 'boolean') got = `boolean \`${value}\``;
  else if (typeof value === 'number')
    got = Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  else if (value === null) got = 'null';
  else if (Array.isArray(value)) got = 'sequence';
  else got = 'map';
  return `invalid type: ${got}, expected ${expected}`;
}

/** Step 6: mqtt sink props are decoded while the SQL is inspected (a wrong type is a 500). */
function mqttPropsDecodeError(sinks: SinkRequest[]): string | null {
  const expected: Record<string, [string, (v: unknown) => boolean]> = {
    broker_url: ['a string', (v) => typeof v === 'string'],
    topic: ['a string', (v) => typeof v === 'string'],
    client_id: ['a string', (v) => typeof v === 'string'],
    connector_key: ['a string', (v) => typeof v === 'string'],
    qos: ['u8', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255],
    retain: ['a boolean', (v) => typeof v === 'boolean'],
    max_packet_size: ['usize', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0],
  };
  for (const sink of sinks) {
    if (sink.type.toLowerCase() !== 'mqtt') continue;
    for (const [key, value] of Object.entries(sink.props ?? {})) {
      const rule = expected[key];
      if (rule && value !== null && !rule[1](value)) return serdeTypeError(value, rule[0]);
    }
  }
  return null;
}

/**
 * Step 8 (CONTRACT §6): sink type, props, encoder and output of each sink in turn, then the
 * declared sources. Every message here is raised after the spec is stored.
 */
function definitionError(req: CreateRequest, streams: string[]): string | null {
  for (const sink of req.sinks) {
    const type = sink.type.toLowerCase();
    const props = sink.props ?? {};
    if (!SINK_TYPES.has(type)) return `unsupported sink type: ${type}`;
    const encoder = sink.encoder?.type ?? 'json';
    if (type === 'mqtt') {
      if (!props['broker_url'] && !props['connector_key']) return 'mqtt sink requires broker_url';
      if (!props['topic']) return 'mqtt sink requires topic';
    }
    if (type === 'nop' && props['log'] !== undefined && typeof props['log'] !== 'boolean') {
      return `invalid nop sink props: ${serdeTypeError(props['log'], 'a boolean')}`;
    }
    if (type === 'memory') {
      if (!props['topic']) return 'memory sink requires topic';
      // The fake declares no memory topics (POST /memory/topics is not implemented).
      return `memory topic \`${asText(props['topic'])}\` not declared`;
    }
    if (type === 'kuksa') {
      if (!props['addr']) return 'kuksa sink props missing addr';
      if (!props['vss_path']) return 'kuksa sink props missing vss_path';
    }
    if (type === 'kura') {
      if (!props['addr']) return 'kura sink props missing addr';
      if (!props['mapping_path']) return 'kura sink props missing mapping_path';
    }
    if (type === 'nng_pubsub') {
      if (!props['url']) return 'nng_pubsub sink requires url';
      if (!props['topic']) return 'nng_pubsub sink requires topic';
    }
    if (!ENCODERS.has(encoder)) return `encoder kind \`${encoder}\` not registered`;
    if (encoder === 'none' && !['memory', 'video', 'kuksa', 'kura'].includes(type)) {
      // CONTRACT §5.1: `none` only works for memory/video sinks. Not in the recordings, so the
      // text is the fake's own; what matters is that the create fails after storing.
      return `encoder \`none\` is not supported by ${type} sinks`;
    }
    const mode = sink.output?.mode;
    if (mode !== undefined && mode !== 'full' && mode !== 'delta') {
      return `invalid sink output.mode \`${mode}\` (expected full|delta)`;
    }
    if (sink.output?.delta !== undefined && mode !== 'delta') {
      return 'sink output.delta is only supported when output.mode=delta';
    }
  }
  for (const source of req.sources ?? []) {
    const stream = source.stream.trim();
    if (!streams.includes(stream)) return `pipeline source \`${stream}\` is not referenced by the SQL`;
  }
  return null;
}

function explainSinks(id: string, sinks: SinkRequest[]): ExplainSink[] {
  return sinks.map((s, i) => ({
    id: s.id ?? `${id}_sink_${i}`,
    connector: s.type.toLowerCase(),
    encoder: s.encoder?.type ?? 'json',
    omitIfEmpty: s.output?.omit_if_empty === true,
    outputMode: s.output?.mode ?? null,
    batching: s.common_sink_props?.batch_count != null || s.common_sink_props?.batch_duration != null,
  }));
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
      common_sink_props: {
        batch_count: s.common_sink_props?.batch_count ?? null,
        batch_duration: s.common_sink_props?.batch_duration ?? null,
      },
      encoder: {
        type: s.encoder?.type ?? 'json',
        props: s.encoder?.props ?? {},
        ...(s.encoder?.transform !== undefined ? { transform: s.encoder.transform } : {}),
      },
      ...(s.output
        ? {
            output: {
              mode: s.output.mode ?? 'full',
              ...(s.output.delta !== undefined ? { delta: s.output.delta } : {}),
              omit_if_empty: s.output.omit_if_empty ?? false,
            },
          }
        : {}),
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

/** axum's Query extractor on `timeout_ms` (u64): rejected before the handler runs. */
function parseTimeout(params: URLSearchParams): void {
  const timeout = params.get('timeout_ms');
  if (timeout === null) return;
  if (timeout === '')
    throw new HttpError(400, 'Failed to deserialize query string: cannot parse integer from empty string');
  if (!/^[0-9]+$/.test(timeout))
    throw new HttpError(400, 'Failed to deserialize query string: invalid digit found in string');
}

function canonicalColumn(c: RawColumn): Column {
  const type = DATA_TYPES[String(c.data_type).toLowerCase()];
  if (!type) throw new HttpError(400, `unsupported data type: ${String(c.data_type).toLowerCase()}`);
  const out: Column = { name: c.name, data_type: type };
  if (type === 'struct') {
    if (!c.fields) throw new HttpError(400, `struct column ${c.name} requires fields definition`);
    (out as { fields?: Column[] }).fields = c.fields.map(canonicalColumn);
  }
  if (type === 'list') {
    if (!c.element) throw new HttpError(400, `list column ${c.name} requires element definition`);
    (out as { element?: Column }).element = canonicalColumn({ ...c.element, name: 'element' });
  }
  return out;
}

function streamInfo(name: string, spec: FakeStreamSpec): Record<string, unknown> {
  return { name, shared: spec.shared, schema: spec.schema, shared_stream: null };
}

function asOptionalText(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

/** A JSON value as the engine echoes it in a message: strings bare, anything else as JSON. */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}
