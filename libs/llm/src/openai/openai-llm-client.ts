import { AsyncLocalStorage } from 'node:async_hooks';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { extractJson } from '../extract-json';
import {
  LlmError,
  type LlmClient,
  type LlmJsonRequest,
  type LlmJsonResult,
  type LlmMessage,
  type LlmRole,
  type LlmTextRequest,
  type LlmTextResult,
  type LlmUsage,
} from '../port';

/**
 * How `json()` asks the server for JSON. `json_schema` (OpenAI structured outputs, some vLLM
 * builds) constrains decoding to the schema; `json_object` only guarantees syntactically valid
 * JSON and is the widest-supported mode; `none` sends no `response_format` for servers that
 * reject it. Every mode still parses and validates the answer with the zod schema.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'none';

/** Options of {@link OpenAiLlmClient}. */
export interface OpenAiLlmClientOptions {
  /** OpenAI-compatible base URL including the version segment, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Bearer key; local servers accept any non-empty dummy. Never appears in error messages. */
  apiKey: string;
  /** Model per role (ARCHITECTURE §8). */
  models: Record<LlmRole, string>;
  /** Per-attempt timeout; for streams also the longest silence allowed between chunks. */
  timeoutMs: number;
  /** Retries the openai package makes (with its backoff, honouring Retry-After) on 408/409/429/5xx/timeouts. */
  maxRetries: number;
  /** Sampling temperature; 0 by default so answers are as reproducible as the server allows. */
  temperature?: number;
  /** Defaults to `json_object`. */
  structuredOutput?: StructuredOutputMode;
  /** Called with the final usage of every successful `text()` / `json()` call (e.g. to record telemetry). */
  onUsage?: (usage: LlmUsage, role: LlmRole) => void;
}

/** Counts the HTTP attempts of one logical call; see {@link OpenAiLlmClient} for why ALS. */
interface AttemptCounter {
  attempts: number;
}

interface CallOptions {
  onDelta?: (delta: string) => void;
  signal?: AbortSignal;
  responseFormat?: ChatCompletionCreateParamsBase['response_format'];
}

interface RawCall {
  text: string;
  usage: LlmUsage;
}

/** Statuses worth retrying later; other 4xx mean the request itself is wrong. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Characters → tokens, for servers that report no usage; the usual ~4 chars/token estimate. */
function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

const JSON_HINT = 'Respond with a single JSON object only, without code fences or commentary.';

/**
 * {@link LlmClient} over any OpenAI-compatible `/chat/completions` endpoint (OpenAI, vLLM,
 * Ollama, llama.cpp, LM Studio) using the official `openai` package.
 *
 * Retries are the package's own (exponential backoff with jitter, honouring `retry-after-ms` /
 * `retry-after`). To report them in `usage.retries` the client passes the package a `fetch`
 * wrapper that counts attempts in an AsyncLocalStorage slot opened per logical call: concurrent
 * calls share one OpenAI instance, so a plain counter on the instance would mix them up.
 */
export class OpenAiLlmClient implements LlmClient {
  private readonly client: OpenAI;
  private readonly attemptCounter = new AsyncLocalStorage<AttemptCounter>();
  private readonly temperature: number;
  private readonly structuredOutput: StructuredOutputMode;

  constructor(private readonly options: OpenAiLlmClientOptions) {
    this.temperature = options.temperature ?? 0;
    this.structuredOutput = options.structuredOutput ?? 'json_object';
    const counter = this.attemptCounter;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      // Passed explicitly because the package otherwise falls back to OPENAI_* environment
      // variables, which would silently send e.g. an organisation header to a local server.
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      fetch: (input, init) => {
        const current = counter.getStore();
        if (current) current.attempts++;
        return fetch(input, init).catch((error: unknown) => {
          throw sameRealmError(error);
        });
      },
    });
  }

  /** Free text; streamed (and `onDelta` called per content delta) when `onDelta` is given. */
  async text(request: LlmTextRequest): Promise<LlmTextResult> {
    const result = await this.call(request.role, request.messages, {
      onDelta: request.onDelta,
      signal: request.signal,
    });
    this.options.onUsage?.(result.usage, request.role);
    return result;
  }

  /**
   * JSON validated by `request.schema`. An unparseable or invalid answer gets one corrective
   * turn (the bad answer plus what was wrong) before giving up with a non-retryable LlmError;
   * usage sums both calls. The corrective call is not streamed: its deltas would be appended to
   * the first answer's in the consumer's view.
   */
  async json<T>(request: LlmJsonRequest<T>): Promise<LlmJsonResult<T>> {
    const started = performance.now();
    const messages = withJsonHint(request.messages);
    const options: CallOptions = {
      signal: request.signal,
      responseFormat: this.responseFormat(request.schema, request.schemaName, request.role),
    };

    const first = await this.call(request.role, messages, { ...options, onDelta: request.onDelta });
    const firstCheck = validate(first.text, request.schema);
    if (firstCheck.ok) {
      this.options.onUsage?.(first.usage, request.role);
      return { value: firstCheck.value, text: first.text, usage: first.usage };
    }

    const corrective: LlmMessage[] = [
      ...messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content:
          `Your previous answer could not be used: ${firstCheck.problem}\n` +
          'Answer again with only the corrected JSON object, matching the required schema, ' +
          'without code fences or commentary.',
      },
    ];
    const second = await this.call(request.role, corrective, options);
    const usage: LlmUsage = {
      model: second.usage.model,
      input_tokens: first.usage.input_tokens + second.usage.input_tokens,
      output_tokens: first.usage.output_tokens + second.usage.output_tokens,
      latency_ms: Math.round(performance.now() - started),
      finish_reason: second.usage.finish_reason,
      retries: first.usage.retries + second.usage.retries,
    };
    const secondCheck = validate(second.text, request.schema);
    if (!secondCheck.ok) {
      throw new LlmError(
        `LLM (role ${request.role}, model ${usage.model}) returned unusable JSON for ` +
          `"${request.schemaName}" even after a corrective turn: ${secondCheck.problem}`,
        false,
        { cause: secondCheck.cause },
      );
    }
    this.options.onUsage?.(usage, request.role);
    return { value: secondCheck.value, text: second.text, usage };
  }

  private responseFormat<T>(
    schema: z.ZodType<T>,
    schemaName: string,
    role: LlmRole,
  ): ChatCompletionCreateParamsBase['response_format'] {
    switch (this.structuredOutput) {
      case 'none':
        return undefined;
      case 'json_object':
        return { type: 'json_object' };
      case 'json_schema': {
        let jsonSchema: Record<string, unknown>;
        try {
          jsonSchema = withoutDefaults(z.toJSONSchema(schema));
        } catch (error) {
          // A schema with transforms/custom types has no JSON Schema form: a programming error.
          throw new LlmError(
            `Cannot convert schema "${schemaName}" (role ${role}) to JSON Schema for structured output`,
            false,
            { cause: error },
          );
        }
        return { type: 'json_schema', json_schema: { name: schemaName, schema: jsonSchema, strict: true } };
      }
    }
  }

  /** One logical chat completion (including the package's retries), errors mapped to LlmError. */
  private async call(role: LlmRole, messages: LlmMessage[], options: CallOptions): Promise<RawCall> {
    const model = this.options.models[role];
    const counter: AttemptCounter = { attempts: 0 };
    const started = performance.now();
    try {
      const raw = await this.attemptCounter.run(counter, () =>
        options.onDelta
          ? this.streamed(model, messages, options, options.onDelta)
          : this.nonStreamed(model, messages, options),
      );
      const inputChars = messages.reduce((sum, m) => sum + m.content.length, 0);
      return {
        text: raw.text,
        usage: {
          model: raw.model || model,
          input_tokens: raw.promptTokens ?? estimateTokens(inputChars),
          output_tokens: raw.completionTokens ?? estimateTokens(raw.text.length),
          latency_ms: Math.round(performance.now() - started),
          finish_reason: raw.finishReason,
          retries: Math.max(0, counter.attempts - 1),
        },
      };
    } catch (error) {
      throw this.toLlmError(error, role, model, counter.attempts);
    }
  }

  private body(model: string, messages: LlmMessage[], options: CallOptions) {
    return {
      model,
      messages: messages.map((m): ChatCompletionMessageParam => ({ role: m.role, content: m.content })),
      temperature: this.temperature,
      ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
    };
  }

  private async nonStreamed(model: string, messages: LlmMessage[], options: CallOptions): Promise<Completion> {
    const completion = await this.client.chat.completions.create(
      { ...this.body(model, messages, options), stream: false },
      { signal: options.signal },
    );
    const choice = completion.choices[0];
    return {
      text: choice?.message.content ?? '',
      model: completion.model,
      finishReason: choice?.finish_reason ?? null,
      promptTokens: completion.usage?.prompt_tokens,
      completionTokens: completion.usage?.completion_tokens,
    };
  }

  private async streamed(
    model: string,
    messages: LlmMessage[],
    options: CallOptions,
    onDelta: (delta: string) => void,
  ): Promise<Completion> {
    const stream = await this.client.chat.completions.create(
      { ...this.body(model, messages, options), stream: true, stream_options: { include_usage: true } },
      { signal: options.signal },
    );

    // The package's timeout only covers the wait for response headers of a stream; a server
    // that then stalls would hang the call forever, so abort after `timeoutMs` of silence.
    let stalled = false;
    let idleTimer: NodeJS.Timeout | undefined;
    const armIdleTimer = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        stalled = true;
        stream.controller.abort();
      }, this.options.timeoutMs);
    };

    const result: Completion = { text: '', model, finishReason: null };
    const parts: string[] = [];
    armIdleTimer();
    try {
      for await (const chunk of stream) {
        armIdleTimer();
        if (chunk.model) result.model = chunk.model;
        if (chunk.usage) {
          result.promptTokens = chunk.usage.prompt_tokens;
          result.completionTokens = chunk.usage.completion_tokens;
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta?.content;
        if (delta) {
          parts.push(delta);
          onDelta(delta);
        }
        if (choice.finish_reason) result.finishReason = choice.finish_reason;
      }
    } finally {
      clearTimeout(idleTimer);
    }
    // An aborted stream ends quietly in the package (no throw), so surface why it ended.
    if (stalled) {
      throw new APIConnectionTimeoutError({
        message: `Stream stalled: no chunk for ${this.options.timeoutMs} ms.`,
      });
    }
    if (options.signal?.aborted) throw new APIUserAbortError();
    result.text = parts.join('');
    return result;
  }

  private toLlmError(error: unknown, role: LlmRole, model: string, attempts: number): LlmError {
    if (error instanceof LlmError) return error;
    const where = `LLM call (role ${role}, model ${model}) failed after ${Math.max(attempts, 1)} attempt(s)`;
    let retryable: boolean;
    let detail: string;
    if (error instanceof APIUserAbortError) {
      retryable = false;
      detail = 'aborted by the caller';
    } else if (error instanceof APIConnectionTimeoutError) {
      retryable = true;
      detail = `timed out (${error.message})`;
    } else if (error instanceof APIConnectionError) {
      retryable = true;
      detail = `connection error (${error.message})`;
    } else if (error instanceof APIError) {
      // No status: an error event inside an SSE stream, i.e. a server-side failure mid-answer.
      const status = error.status as number | undefined;
      retryable = status === undefined || isRetryableStatus(status);
      detail = error.message;
    } else {
      retryable = false;
      detail = error instanceof Error ? error.message : String(error);
    }
    return new LlmError(this.redact(`${where}: ${detail}`), retryable, { cause: error });
  }

  /** Servers sometimes echo request details in errors; keep the key out of our messages. */
  private redact(message: string): string {
    const key = this.options.apiKey;
    return key.length >= 4 ? message.split(key).join('[redacted]') : message;
  }
}

interface Completion {
  text: string;
  model: string;
  finishReason: string | null;
  promptTokens?: number;
  completionTokens?: number;
}

/**
 * fetch rejects a timed-out request with a DOMException `AbortError` from Node's own realm. When
 * this module runs in another realm (Jest's vm sandbox) that is not `instanceof Error` there, and
 * the openai package then flattens it to a nameless Error and reports a timeout as a generic
 * "Connection error". Re-creating it as a local Error keeps the name, so timeouts stay timeouts.
 */
function sameRealmError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error;
  const { name, message } = error as { name?: unknown; message?: unknown };
  const local = new Error(typeof message === 'string' ? message : 'non-Error thrown', { cause: error });
  if (typeof name === 'string') local.name = name;
  return local;
}

type Validation<T> = { ok: true; value: T } | { ok: false; problem: string; cause: unknown };

function validate<T>(text: string, schema: z.ZodType<T>): Validation<T> {
  let parsed: unknown;
  try {
    parsed = extractJson(text);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON. ${(error as Error).message}`, cause: error };
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    return {
      ok: false,
      problem: `the JSON does not match the required schema:\n${z.prettifyError(result.error)}`,
      cause: result.error,
    };
  }
  return { ok: true, value: result.data };
}

/**
 * OpenAI's `json_object` mode rejects requests whose messages never mention JSON, and models
 * without any response_format need telling; prompts usually say it already, so only add it then.
 */
function withJsonHint(messages: LlmMessage[]): LlmMessage[] {
  if (messages.some((m) => /json/i.test(m.content))) return messages;
  return [...messages, { role: 'system', content: JSON_HINT }];
}

/**
 * The JSON Schema without `default` keywords, which strict structured outputs do not accept: a
 * field with a default is still required there (zod emits output schemas), and the default only
 * serves answers from servers without strict outputs, when the answer is parsed.
 */
export function withoutDefaults<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutDefaults) as T;
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'default')
      .map(([key, value]) => [key, withoutDefaults(value)]),
  ) as T;
}
