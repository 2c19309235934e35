import type { z } from 'zod';
import type { ClassifiedFailure, FailureKind, LlmCallRecord } from '@nl2p/envelope';

/** Models are chosen per role (ARCHITECTURE §8). */
export type LlmRole = 'router' | 'preview' | 'reasoning';

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a client reports of each successful call (the trace's LLM call record, without the provider). */
export type LlmUsage = Omit<LlmCallRecord, 'provider'>;

export interface LlmTextRequest {
  role: LlmRole;
  messages: LlmMessage[];
  /** Called with each streamed delta as it arrives; when set the call is streamed. */
  onDelta?: (delta: string) => void;
  signal?: AbortSignal;
  /**
   * A GBNF grammar (llama.cpp's format) the answer must follow, e.g. `sqlGrammarFor(vocabulary)`.
   * The local provider decodes under it (for `json()` instead of the grammar it derives from
   * `schema`, which still validates the result); OpenAI-compatible servers have no such option,
   * so that provider ignores it (its `json()` sends the schema as `response_format` instead).
   */
  grammar?: string;
}

export interface LlmJsonRequest<T> extends LlmTextRequest {
  schema: z.ZodType<T>;
  /** Name of the JSON schema for structured-output capable servers. */
  schemaName: string;
}

export interface LlmTextResult {
  text: string;
  usage: LlmUsage;
}

export interface LlmJsonResult<T> {
  value: T;
  text: string;
  usage: LlmUsage;
}

/** The one LLM interface every node uses; providers (OpenAI-compatible, local) implement it. */
export interface LlmClient {
  text(request: LlmTextRequest): Promise<LlmTextResult>;
  json<T>(request: LlmJsonRequest<T>): Promise<LlmJsonResult<T>>;
}

/** The LLM stayed unavailable or kept answering something unusable after every retry. */
export class LlmError extends Error implements ClassifiedFailure {
  override readonly name = 'LlmError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get failureKind(): FailureKind {
    return this.retryable ? 'llm_unavailable' : 'llm_refused';
  }
}
