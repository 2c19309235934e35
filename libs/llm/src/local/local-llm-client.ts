import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import type { ChatHistoryItem, Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
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
import { toGrammarJsonSchema } from './grammar-json-schema';
import { loadNodeLlamaCpp } from './node-llama-cpp';

/** Options of {@link LocalLlmClient}. */
export interface LocalLlmClientOptions {
  /** A GGUF file; its basename is the model name reported in usage. */
  modelPath: string;
  /** Tokens per sequence (prompt + answer); bounds memory. Default 4096. */
  contextSize?: number;
  /** Longest answer in tokens (further capped by what the context has left). Default 512. */
  maxTokens?: number;
  /**
   * Per call: waiting for a free sequence plus generating. On expiry the generation is aborted
   * and the call fails with a retryable LlmError. The one-off model load is not counted.
   */
  timeoutMs: number;
  /**
   * CPU threads for evaluation. Default: one core fewer than this process may use (at least 1).
   * llama.cpp's threads spin-wait on each other, so threads that do not each own a core are far
   * worse than fewer threads: on the 2-core machine, node-llama-cpp's default of 4 threads gave
   * 0.3 tokens/s (2 threads: 49); with other processes busy (the other services, tests), 2
   * threads fell to 1–3 tokens/s while 1 thread kept 30–34. The spare core is for the rest of
   * the stack (Redis, the other services, the engine).
   */
  threads?: number;
  /** Sampling temperature; 0 (greedy) by default so answers are reproducible. */
  temperature?: number;
  /**
   * Parallel sequences in the one context (a small pool). Default 1: calls are served one at a
   * time in arrival order, which on a few CPU cores is as fast in total and keeps memory at one
   * KV cache. Each extra sequence adds a KV cache of `contextSize` tokens.
   */
  sequences?: number;
  /**
   * Grammar-constrained decoding (default true): `json()` decodes under a grammar from the
   * request's `grammar` or `schema`, `text()` under the request's `grammar`. False ignores every
   * grammar (answers are still validated; `json()` keeps its corrective turn), which is only
   * useful to measure what constrained decoding buys.
   */
  constrained?: boolean;
  /**
   * Lowers a token's probability by this much for each time it occurred in the last 48 tokens
   * (llama.cpp's frequency penalty; newlines exempt). Default 0 (off). Small models decoding
   * under a grammar tend to loop (`IN (1, 2, 3, …`, `device_id, device_id, …`) until the token
   * limit; 0.6 broke most such loops of SmolLM2-135M and doubled its valid first drafts.
   * Deterministic like the rest of greedy decoding.
   */
  frequencyPenalty?: number;
  /** Called with the final usage of every successful `text()` / `json()` call. */
  onUsage?: (usage: LlmUsage, role: LlmRole) => void;
}

/**
 * A text request; its optional `grammar` (GBNF, e.g. {@link sqlGrammarFor}) constrains the answer.
 * The field is part of {@link LlmTextRequest} now; this alias stays for existing callers.
 */
export type LocalLlmTextRequest = LlmTextRequest;

/**
 * A JSON request; its optional `grammar` (e.g. {@link reviseGrammarFor}, which also constrains
 * SQL inside a string) replaces the one derived from `schema`, which still validates the result.
 */
export type LocalLlmJsonRequest<T> = LlmJsonRequest<T>;

/** What {@link LocalLlmClient.warmUp} reports about the loaded model. */
export interface LocalModelInfo {
  model: string;
  modelPath: string;
  contextSize: number;
  threads: number;
  sequences: number;
  /** Time this process spent loading the GGUF (0 when another client had loaded it). */
  loadMs: number;
}

/** One context over a loaded model, with its pool of chat sequences. */
interface Runtime {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  info: LocalModelInfo;
  free: LlamaChat[];
  waiters: ((chat: LlamaChat) => void)[];
}

// Process-wide on purpose: every LocalLlmClient in a worker (router, drafter, reviser roles…)
// shares one native binding, each GGUF is read into memory once, and one context serves all
// clients with the same context settings.
let llamaPromise: Promise<Llama> | undefined;
const models = new Map<string, Promise<{ model: LlamaModel; loadMs: number }>>();
const runtimes = new Map<string, Promise<Runtime>>();
const schemaGrammars = new WeakMap<object, Promise<LlamaGrammar>>();
const gbnfGrammars = new Map<string, Promise<LlamaGrammar>>();
const GBNF_CACHE_LIMIT = 64;
let modelLoads = 0;

/** How many times this process has read a GGUF model into memory (observability, tests). */
export function localModelLoadCount(): number {
  return modelLoads;
}

/**
 * Frees every local model, context and the native binding (service shutdown, end of a test
 * file). Calls in flight fail; later calls load again.
 */
export async function disposeLocalModels(): Promise<void> {
  const loadedRuntimes = await Promise.allSettled([...runtimes.values()]);
  const loadedModels = await Promise.allSettled([...models.values()]);
  const llama = llamaPromise;
  runtimes.clear();
  models.clear();
  gbnfGrammars.clear();
  llamaPromise = undefined;
  for (const r of loadedRuntimes) if (r.status === 'fulfilled') await r.value.context.dispose();
  for (const m of loadedModels) if (m.status === 'fulfilled') await m.value.model.dispose();
  if (llama) await llama.then((l) => l.dispose()).catch(() => undefined);
}

/** See {@link LocalLlmClientOptions.threads}. */
function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

function getLlamaOnce(threads: number): Promise<Llama> {
  llamaPromise ??= loadNodeLlamaCpp()
    .then(({ getLlama, LlamaLogLevel }) =>
      getLlama({
        // The prebuilt CPU binding from the npm package only: never probe GPUs, download
        // llama.cpp sources or compile at run time (machines here reach package registries only).
        gpu: false,
        build: 'never',
        usePrebuiltBinaries: true,
        skipDownload: true,
        progressLogs: false,
        // llama.cpp writes straight to the console; services log structured JSON.
        logLevel: LlamaLogLevel.error,
        // Caps the threads of all evaluations together (contexts of other clients included).
        maxThreads: threads,
      }),
    )
    .catch((error: unknown) => {
      llamaPromise = undefined;
      throw error;
    });
  return llamaPromise;
}

function loadModelOnce(llama: Llama, modelPath: string): Promise<{ model: LlamaModel; loadMs: number }> {
  let loading = models.get(modelPath);
  if (!loading) {
    const started = performance.now();
    modelLoads++;
    loading = llama
      .loadModel({ modelPath })
      .then((model) => ({ model, loadMs: Math.round(performance.now() - started) }));
    loading.catch(() => models.delete(modelPath));
    models.set(modelPath, loading);
  }
  return loading;
}

/**
 * {@link LlmClient} running a GGUF model in-process on the CPU with node-llama-cpp (llama.cpp).
 *
 * - The model is loaded lazily by the first call (or {@link warmUp}) and once per process: the
 *   native binding, the model and the context are shared by every client instance.
 * - Concurrency: the context holds `sequences` chat sequences (default 1); calls beyond that wait
 *   in arrival order. The timeout covers the wait, so an overloaded worker fails calls with a
 *   retryable error instead of queueing without bound.
 * - Prompts are rendered with the model's own chat template (node-llama-cpp's wrapper
 *   auto-detection: the GGUF's Jinja template, else the architecture's known format).
 * - `json()` decodes under a grammar built from the zod schema's JSON Schema, so the answer
 *   always parses and enum fields (e.g. catalog names from {@link routerSchemaFor}) can hold only
 *   their listed values; zod validates it anyway.
 * - Usage: input = prompt tokens as rendered and tokenized, output = generated tokens.
 */
export class LocalLlmClient implements LlmClient {
  private readonly modelPath: string;
  private readonly modelName: string;
  private readonly contextSize: number;
  private readonly maxTokens: number;
  private readonly threads: number;
  private readonly temperature: number;
  private readonly sequences: number;
  private readonly constrained: boolean;
  private readonly frequencyPenalty: number;

  constructor(private readonly options: LocalLlmClientOptions) {
    this.modelPath = resolve(options.modelPath);
    this.modelName = basename(this.modelPath);
    this.contextSize = options.contextSize ?? 4096;
    this.maxTokens = options.maxTokens ?? 512;
    this.threads = options.threads ?? defaultThreads();
    this.temperature = options.temperature ?? 0;
    this.sequences = options.sequences ?? 1;
    this.constrained = options.constrained ?? true;
    this.frequencyPenalty = options.frequencyPenalty ?? 0;
  }

  /** Loads the model now (e.g. at service start) rather than on the first call. */
  async warmUp(): Promise<LocalModelInfo> {
    return (await this.runtime()).info;
  }

  /** Free text; `onDelta` receives each decoded piece as it is generated. */
  async text(request: LocalLlmTextRequest): Promise<LlmTextResult> {
    const grammar = request.grammar === undefined || !this.constrained ? undefined : { gbnf: request.grammar };
    const result = await this.call(request.role, request.messages, {
      onDelta: request.onDelta,
      signal: request.signal,
      grammar,
    });
    this.options.onUsage?.(result.usage, request.role);
    return result;
  }

  /**
   * JSON decoded under a grammar (from `request.grammar`, else from `request.schema`) and
   * validated by `request.schema`. The grammar guarantees the shape, but not refinements (e.g.
   * SQL naming only catalog identifiers) or completeness when `maxTokens` cuts the answer, so an
   * invalid answer gets one corrective turn, like the OpenAI-compatible provider, before a
   * non-retryable LlmError; usage sums both calls.
   */
  async json<T>(request: LocalLlmJsonRequest<T>): Promise<LlmJsonResult<T>> {
    const started = performance.now();
    const grammar: GrammarSpec | undefined = !this.constrained
      ? undefined
      : request.grammar === undefined
        ? { schema: request.schema, schemaName: request.schemaName }
        : { gbnf: request.grammar };
    const first = await this.call(request.role, request.messages, {
      onDelta: request.onDelta,
      signal: request.signal,
      grammar,
    });
    const firstCheck = validate(first.text, request.schema);
    if (firstCheck.ok) {
      this.options.onUsage?.(first.usage, request.role);
      return { value: firstCheck.value, text: first.text, usage: first.usage };
    }

    const corrective: LlmMessage[] = [
      ...request.messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content:
          `Your previous answer could not be used: ${firstCheck.problem}\n` +
          'Answer again with only the corrected JSON object.',
      },
    ];
    // Not streamed: its deltas would be appended to the first answer's in the consumer's view.
    const second = await this.call(request.role, corrective, { signal: request.signal, grammar });
    const usage: LlmUsage = {
      model: this.modelName,
      input_tokens: first.usage.input_tokens + second.usage.input_tokens,
      output_tokens: first.usage.output_tokens + second.usage.output_tokens,
      latency_ms: Math.round(performance.now() - started),
      finish_reason: second.usage.finish_reason,
      retries: 0,
    };
    const secondCheck = validate(second.text, request.schema);
    if (!secondCheck.ok) {
      throw new LlmError(
        `Local LLM (role ${request.role}, model ${this.modelName}) returned unusable JSON for ` +
          `"${request.schemaName}" even after a corrective turn: ${secondCheck.problem}`,
        false,
        { cause: secondCheck.cause },
      );
    }
    this.options.onUsage?.(usage, request.role);
    return { value: secondCheck.value, text: second.text, usage };
  }

  private runtime(): Promise<Runtime> {
    const key = [this.modelPath, this.contextSize, this.threads, this.sequences].join('|');
    let runtime = runtimes.get(key);
    if (!runtime) {
      runtime = this.createRuntime().catch((error: unknown) => {
        runtimes.delete(key);
        throw new LlmError(`Cannot load the local model ${this.modelPath}: ${messageOf(error)}`, false, {
          cause: error,
        });
      });
      runtimes.set(key, runtime);
    }
    return runtime;
  }

  private async createRuntime(): Promise<Runtime> {
    // Checked here for a clear message; llama.cpp's own is a bare "failed to load model".
    if (!existsSync(this.modelPath)) {
      throw new Error(`no such file (fetch the default model with scripts/fetch-model.sh, or set a GGUF path)`);
    }
    const llama = await getLlamaOnce(this.threads);
    if (llama.maxThreads < this.threads) llama.maxThreads = this.threads;
    const alreadyLoading = models.has(this.modelPath);
    const { model, loadMs } = await loadModelOnce(llama, this.modelPath);
    const context = await model.createContext({
      contextSize: this.contextSize,
      sequences: this.sequences,
      threads: this.threads,
    });
    const { LlamaChat } = await loadNodeLlamaCpp();
    const free = Array.from(
      { length: this.sequences },
      () => new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: 'auto' }),
    );
    return {
      llama,
      model,
      context,
      free,
      waiters: [],
      info: {
        model: this.modelName,
        modelPath: this.modelPath,
        contextSize: context.contextSize,
        threads: this.threads,
        sequences: this.sequences,
        loadMs: alreadyLoading ? 0 : loadMs,
      },
    };
  }

  private async grammarFor(llama: Llama, spec: GrammarSpec): Promise<LlamaGrammar> {
    if ('gbnf' in spec) {
      let grammar = gbnfGrammars.get(spec.gbnf);
      if (!grammar) {
        // Catalog-derived grammars are few per process; the cap only guards against a leak.
        if (gbnfGrammars.size >= GBNF_CACHE_LIMIT) gbnfGrammars.clear();
        grammar = llama.createGrammar({ grammar: spec.gbnf });
        grammar.catch(() => gbnfGrammars.delete(spec.gbnf));
        gbnfGrammars.set(spec.gbnf, grammar);
      }
      return grammar;
    }
    let grammar = schemaGrammars.get(spec.schema);
    if (!grammar) {
      const jsonSchema = toGrammarJsonSchema(z.toJSONSchema(spec.schema));
      grammar = llama.createGrammarForJsonSchema(jsonSchema as Parameters<Llama['createGrammarForJsonSchema']>[0]);
      grammar.catch(() => schemaGrammars.delete(spec.schema));
      schemaGrammars.set(spec.schema, grammar);
    }
    return grammar;
  }

  /** One generation, errors mapped to LlmError. */
  private async call(role: LlmRole, messages: LlmMessage[], options: CallOptions): Promise<LlmTextResult> {
    const where = `Local LLM call (role ${role}, model ${this.modelName})`;
    if (options.signal?.aborted) throw new LlmError(`${where}: aborted by the caller`, false);
    const rt = await this.runtime();

    let grammar: LlamaGrammar | undefined;
    try {
      grammar = options.grammar && (await this.grammarFor(rt.llama, options.grammar));
    } catch (error) {
      // A schema or grammar the engine cannot compile is a programming error: no retry helps.
      const what =
        options.grammar && 'schemaName' in options.grammar ? `schema "${options.grammar.schemaName}"` : 'grammar';
      throw new LlmError(`${where}: cannot build a grammar from the ${what}: ${messageOf(error)}`, false, {
        cause: error,
      });
    }

    const started = performance.now();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${this.options.timeoutMs} ms`));
    }, this.options.timeoutMs);
    const onCallerAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      const chat = await acquire(rt, controller.signal);
      try {
        return await this.generate(rt, chat, messages, grammar, options.onDelta, controller.signal, started);
      } finally {
        release(rt, chat);
      }
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (timedOut) {
        throw new LlmError(`${where} timed out after ${this.options.timeoutMs} ms`, true, { cause: error });
      }
      if (options.signal?.aborted) throw new LlmError(`${where}: aborted by the caller`, false, { cause: error });
      throw new LlmError(`${where} failed: ${messageOf(error)}`, false, { cause: error });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private async generate(
    rt: Runtime,
    chat: LlamaChat,
    messages: LlmMessage[],
    grammar: LlamaGrammar | undefined,
    onDelta: ((delta: string) => void) | undefined,
    signal: AbortSignal,
    started: number,
  ): Promise<LlmTextResult> {
    // The trailing empty model turn is where the answer goes (as LlamaChatSession does it).
    const history: ChatHistoryItem[] = [...messages.map(toHistoryItem), { type: 'model', response: [] }];
    const promptTokens = chat.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(rt.model.tokenizer).length;
    // A prompt that does not fit would make node-llama-cpp shift the context, silently dropping
    // the oldest messages (the system prompt's rules among them); refuse it instead.
    const room = rt.info.contextSize - promptTokens;
    if (room < MIN_ANSWER_TOKENS) {
      throw new LlmError(
        `Local LLM prompt of ${promptTokens} tokens leaves no room to answer in a context of ` +
          `${rt.info.contextSize} tokens (raise the context size or shorten the prompt)`,
        false,
      );
    }

    let outputTokens = 0;
    const response = await chat.generateResponse(history, {
      maxTokens: Math.min(this.maxTokens, room),
      temperature: this.temperature,
      grammar,
      signal,
      repeatPenalty: this.frequencyPenalty
        ? { penalty: 1, frequencyPenalty: this.frequencyPenalty, lastTokens: 48, penalizeNewLine: false }
        : false,
      onTextChunk: onDelta,
      onToken: (tokens) => {
        outputTokens += tokens.length;
      },
    });
    return {
      text: response.response,
      usage: {
        model: this.modelName,
        input_tokens: promptTokens,
        output_tokens: outputTokens,
        latency_ms: Math.round(performance.now() - started),
        finish_reason: finishReason(response.metadata.stopReason),
        retries: 0,
      },
    };
  }
}

/** The smallest answer budget worth starting a generation for. */
const MIN_ANSWER_TOKENS = 16;

type GrammarSpec = { gbnf: string } | { schema: z.ZodType; schemaName: string };

interface CallOptions {
  onDelta?: (delta: string) => void;
  signal?: AbortSignal;
  grammar?: GrammarSpec;
}

function toHistoryItem(message: LlmMessage): ChatHistoryItem {
  switch (message.role) {
    case 'system':
      return { type: 'system', text: message.content };
    case 'user':
      return { type: 'user', text: message.content };
    case 'assistant':
      return { type: 'model', response: [message.content] };
  }
}

/** OpenAI's finish reasons, so telemetry reads the same for both providers. */
function finishReason(stopReason: string): string {
  switch (stopReason) {
    case 'maxTokens':
      return 'length';
    case 'abort':
      return 'abort';
    default:
      // eogToken, stopGenerationTrigger (grammar complete), customStopTrigger
      return 'stop';
  }
}

/** Waits for a free chat sequence in arrival order; the signal withdraws the wait. */
function acquire(rt: Runtime, signal: AbortSignal): Promise<LlamaChat> {
  const free = rt.free.pop();
  if (free) return Promise.resolve(free);
  return new Promise((resolvePromise, reject) => {
    const waiter = (chat: LlamaChat) => {
      signal.removeEventListener('abort', onAbort);
      resolvePromise(chat);
    };
    const onAbort = () => {
      rt.waiters.splice(rt.waiters.indexOf(waiter), 1);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    rt.waiters.push(waiter);
  });
}

function release(rt: Runtime, chat: LlamaChat): void {
  const next = rt.waiters.shift();
  if (next) next(chat);
  else rt.free.push(chat);
}

/**
 * node-llama-cpp runs in Node's main realm (see loadNodeLlamaCpp), so under Jest its errors are
 * not `instanceof Error` here; read the message structurally.
 */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

type Validation<T> = { ok: true; value: T } | { ok: false; problem: string; cause: unknown };

function validate<T>(text: string, schema: z.ZodType<T>): Validation<T> {
  let parsed: unknown;
  try {
    parsed = extractJson(text);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON. ${messageOf(error)}`, cause: error };
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
