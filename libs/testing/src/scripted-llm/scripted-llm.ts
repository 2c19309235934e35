import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat message as the server received it (array content parts are joined to text). */
export interface ScriptedMessage {
  role: string;
  content: string;
}

/** One `POST /v1/chat/completions` the server received, as recorded in {@link ScriptedLlm.requests}. */
export interface ScriptedRequest {
  model: string;
  messages: ScriptedMessage[];
  stream: boolean;
  /** `stream_options.include_usage` was set, so a streamed answer ends with a usage chunk. */
  includeUsage: boolean;
  response_format: unknown;
  temperature: number | undefined;
  /** Request headers, lower-cased (e.g. `authorization`, `x-stainless-retry-count`). */
  headers: Record<string, string>;
  /** The whole parsed JSON body, for assertions on anything else. */
  body: Record<string, unknown>;
  /** `Date.now()` when the body had been read. */
  receivedAt: number;
}

/** Answer with this assistant text, as a `chat.completion` or (if requested) an SSE stream. */
export interface ScriptedContentReply {
  content: string;
  /** Wait this long before answering (before the headers). */
  delayMs?: number;
  /** Wait this long between streamed chunks, e.g. to provoke a client's stall timeout. */
  chunkDelayMs?: number;
  /** Defaults to `stop`. */
  finishReason?: string;
  /** Report this model instead of the requested one. */
  model?: string;
  /** Leave `usage` out, like some local servers do, to exercise token estimation. */
  omitUsage?: boolean;
}

/** Answer with an HTTP error (429 with `retry-after`, 500, 400 …). */
export interface ScriptedStatusReply {
  status: number;
  /** Raw body; defaults to an OpenAI-style `{"error": {...}}` JSON. */
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Never answer, to exercise client timeouts; the connection is dropped on `stop()`. */
export interface ScriptedHangReply {
  hang: true;
}

export type ScriptedReply = ScriptedContentReply | ScriptedStatusReply | ScriptedHangReply;

/** Computes the reply for a request; may be async. */
export type ScriptedHandler = (request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>;

/**
 * Matches a rule against the text of the last user or system message (the server cannot see
 * which pipeline role asked, only the prompt): a substring, a RegExp or a predicate.
 */
export type ScriptedMatcher = string | RegExp | ((text: string, request: ScriptedRequest) => boolean);

interface Rule {
  matches: (text: string, request: ScriptedRequest) => boolean;
  reply: ScriptedReply | ScriptedHandler;
  remaining: number;
}

/** Options of {@link ScriptedLlm}. */
export interface ScriptedLlmOptions {
  /** Fallback for requests no queued reply or rule answers. */
  handler?: ScriptedHandler;
}

/** ~4 characters per token: deterministic, so tests can assert exact usage numbers. */
export function scriptedTokenCount(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * Splits text into word-sized stream deltas that concatenate back to exactly the input
 * (whitespace stays attached to the word before it).
 */
export function scriptedDeltas(content: string): string[] {
  return content.match(/\s*\S+\s*/g) ?? (content === '' ? [] : [content]);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join('');
  }
  return '';
}

function errorBody(message: string, type = 'scripted_error'): string {
  return JSON.stringify({ error: { message, type, code: null, param: null } });
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 for tests: real HTTP, so clients are
 * exercised with their own transport, retries, timeouts and SSE parsing.
 *
 * Each request is answered by, in order: the next {@link enqueue}d reply, the first matching
 * {@link when} rule, {@link handler}, else a 500 with `x-should-retry: false` naming the
 * unscripted request (so a forgotten script fails fast instead of being retried).
 *
 * @example
 * const llm = new ScriptedLlm();
 * const baseUrl = await llm.start();
 * llm.when('classify', { content: '{"intent":"create"}' });
 * llm.enqueue({ status: 429, headers: { 'retry-after': '0' } });
 * // ... point the client at baseUrl ...
 * await llm.stop();
 */
export class ScriptedLlm {
  /** Every request received, in arrival order. */
  readonly requests: ScriptedRequest[] = [];
  /** Fallback answer; replaceable at any time. */
  handler: ScriptedHandler | undefined;

  private readonly initialHandler: ScriptedHandler | undefined;
  private readonly queue: (ScriptedReply | ScriptedHandler)[] = [];
  private readonly rules: Rule[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | undefined;
  private url: string | undefined;
  private completionSeq = 0;

  constructor(options: ScriptedLlmOptions = {}) {
    this.handler = options.handler;
    this.initialHandler = options.handler;
  }

  /** Base URL ending in `/v1`, once started. */
  get baseUrl(): string {
    if (!this.url) throw new Error('ScriptedLlm is not started');
    return this.url;
  }

  /** The most recent request, if any. */
  get lastRequest(): ScriptedRequest | undefined {
    return this.requests[this.requests.length - 1];
  }

  /** Listens on an ephemeral port of 127.0.0.1; resolves to the base URL (ending in `/v1`). */
  async start(): Promise<string> {
    if (this.server) return this.baseUrl;
    const server = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        }
        res.end(errorBody(`ScriptedLlm failed: ${error instanceof Error ? error.message : String(error)}`));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  /** Stops listening and drops every connection, including hanging and keep-alive ones. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.url = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** Replies used first-in first-out before rules and the handler. */
  enqueue(...replies: (ScriptedReply | ScriptedHandler)[]): this {
    this.queue.push(...replies);
    return this;
  }

  /**
   * Answers requests whose last user/system message matches; rules are checked in the order
   * they were added and apply until `times` matches are used up (forever by default).
   */
  when(matcher: ScriptedMatcher, reply: ScriptedReply | ScriptedHandler, options: { times?: number } = {}): this {
    const matches =
      typeof matcher === 'string'
        ? (text: string) => text.includes(matcher)
        : matcher instanceof RegExp
          ? (text: string) => matcher.test(text)
          : matcher;
    this.rules.push({ matches, reply, remaining: options.times ?? Infinity });
    return this;
  }

  /** Forgets queued replies, rules and recorded requests, and restores the constructor's handler. */
  reset(): void {
    this.queue.length = 0;
    this.rules.length = 0;
    this.requests.length = 0;
    this.handler = this.initialHandler;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(errorBody(`ScriptedLlm only serves POST /v1/chat/completions, not ${req.method} ${path}`));
      return;
    }

    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(errorBody('Request body is not a JSON object', 'invalid_request_error'));
      return;
    }

    const messages = Array.isArray(body['messages'])
      ? (body['messages'] as { role?: unknown; content?: unknown }[]).map((m) => ({
          role: typeof m?.role === 'string' ? m.role : '',
          content: textOf(m?.content),
        }))
      : [];
    const streamOptions = body['stream_options'] as { include_usage?: unknown } | undefined;
    const request: ScriptedRequest = {
      model: typeof body['model'] === 'string' ? body['model'] : '',
      messages,
      stream: body['stream'] === true,
      includeUsage: streamOptions?.include_usage === true,
      response_format: body['response_format'],
      temperature: typeof body['temperature'] === 'number' ? body['temperature'] : undefined,
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      ),
      body,
      receivedAt: Date.now(),
    };
    this.requests.push(request);

    const reply = await this.replyFor(request);
    if ('hang' in reply) return;
    if (reply.delayMs) await this.sleep(reply.delayMs);
    if (res.destroyed) return;

    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? errorBody(`ScriptedLlm scripted status ${reply.status}`));
      return;
    }
    if (request.stream) await this.writeStream(res, request, reply);
    else this.writeCompletion(res, request, reply);
  }

  private async replyFor(request: ScriptedRequest): Promise<ScriptedReply> {
    const queued = this.queue.shift();
    if (queued) return typeof queued === 'function' ? queued(request) : queued;

    const last = [...request.messages].reverse().find((m) => m.role === 'user' || m.role === 'system');
    const text = last?.content ?? '';
    for (const rule of this.rules) {
      if (rule.remaining > 0 && rule.matches(text, request)) {
        rule.remaining--;
        return typeof rule.reply === 'function' ? rule.reply(request) : rule.reply;
      }
    }

    if (this.handler) return this.handler(request);
    return {
      status: 500,
      headers: { 'x-should-retry': 'false' },
      body: errorBody(
        `ScriptedLlm: no reply scripted for request #${this.requests.length} ` +
          `(model ${request.model}, last message: ${JSON.stringify(text.slice(0, 120))})`,
      ),
    };
  }

  private usage(request: ScriptedRequest, content: string) {
    const prompt = scriptedTokenCount(request.messages.reduce((sum, m) => sum + m.content.length, 0));
    const completion = scriptedTokenCount(content.length);
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }

  private writeCompletion(res: ServerResponse, request: ScriptedRequest, reply: ScriptedContentReply): void {
    const completion = {
      id: `chatcmpl-scripted-${++this.completionSeq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: reply.model ?? request.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.content, refusal: null },
          logprobs: null,
          finish_reason: reply.finishReason ?? 'stop',
        },
      ],
      ...(reply.omitUsage ? {} : { usage: this.usage(request, reply.content) }),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion));
  }

  private async writeStream(res: ServerResponse, request: ScriptedRequest, reply: ScriptedContentReply): Promise<void> {
    const base = {
      id: `chatcmpl-scripted-${++this.completionSeq}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: reply.model ?? request.model,
    };
    const chunks: unknown[] = [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      ...scriptedDeltas(reply.content).map((content) => ({
        ...base,
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      })),
      { ...base, choices: [{ index: 0, delta: {}, finish_reason: reply.finishReason ?? 'stop' }] },
    ];
    if (request.includeUsage && !reply.omitUsage) {
      chunks.push({ ...base, choices: [], usage: this.usage(request, reply.content) });
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [i, chunk] of chunks.entries()) {
      if (i > 0 && reply.chunkDelayMs) await this.sleep(reply.chunkDelayMs);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  /** A delay `stop()` can cancel, so a stopped server leaves no timers behind. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
