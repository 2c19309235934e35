import type { AppConfig } from '@nl2p/config';
import type { LlmClient, LlmRole, LlmUsage } from './port';

/** Which kind of LLM a deployment talks to (`LLM_PROVIDER`, resolved by the config). */
export type LlmProviderKind = AppConfig['llm']['provider'];

/** Reports every successful call: tokens, latency, retries (telemetry hooks it in). */
export type LlmUsageHook = (usage: LlmUsage, role: LlmRole) => void;

/**
 * Everything the product knows about one kind of LLM, in one place: how to build its client, what
 * to tell people about it, how its prompts are sized, and what a process must load and free. A new
 * provider is a folder with a profile and one entry in `LLM_PROVIDERS`; nothing else branches on a
 * provider's name.
 */
export interface LlmProviderProfile {
  kind: LlmProviderKind;
  /** The runtime as GenAI telemetry names it (`openai`, `llama.cpp`). */
  telemetryName: string;
  create(config: AppConfig, onUsage: LlmUsageHook): LlmClient;
  /** Where the model is, for people (the start banner): never a secret. */
  whereabouts(config: AppConfig): string;
  /** The settings worth printing beside eval figures (never a key). */
  settings(config: AppConfig): Record<string, string>;
  /** Small models: the LLM nodes send compact prompts. */
  compactPrompts(config: AppConfig): boolean;
  /** Fails fast, in words, when the model cannot be reached (callers that start many processes). */
  checkReachable?(config: AppConfig): Promise<void>;
  /** Loads the model before the first request (so a missing model stops the service at start); a line for the log. */
  warmUp?(client: LlmClient, config: AppConfig): Promise<string>;
  /** Frees what this process loaded. */
  dispose?(): Promise<void>;
}
