import type { AppConfig } from '@nl2p/config';
import { localProvider } from './local/provider';
import { openaiProvider } from './openai/provider';
import type { LlmClient, LlmRole, LlmUsage } from './port';
import type { LlmProviderKind, LlmProviderProfile } from './provider';

/** Every LLM provider the product can talk to (see {@link LlmProviderProfile}). */
export const LLM_PROVIDERS: Readonly<Record<LlmProviderKind, LlmProviderProfile>> = {
  openai: openaiProvider,
  local: localProvider,
};

/** The profile of the deployment's provider (`config.llm.provider`). */
export function llmProvider(config: AppConfig): LlmProviderProfile {
  return LLM_PROVIDERS[config.llm.provider];
}

/**
 * The deployment's LLM client; every successful call is reported to `onUsage` with the provider's
 * telemetry name (the current node run's call log and a GenAI span, when telemetry hooks it in).
 */
export function createLlmClient(
  config: AppConfig,
  onUsage: (provider: string, usage: LlmUsage, role: LlmRole) => void = () => undefined,
): LlmClient {
  const profile = llmProvider(config);
  return profile.create(config, (usage, role) => onUsage(profile.telemetryName, usage, role));
}
