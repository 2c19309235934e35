import type { LlmProviderProfile } from '../provider';
import { OpenAiLlmClient } from './openai-llm-client';

/** Any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama, llama.cpp's server, …). */
export const openaiProvider: LlmProviderProfile = {
  kind: 'openai',
  telemetryName: 'openai',
  create: (config, onUsage) =>
    new OpenAiLlmClient({
      baseUrl: config.llm.baseUrl,
      apiKey: config.llm.apiKey,
      models: config.llm.models,
      timeoutMs: config.llm.timeoutMs,
      maxRetries: config.llm.maxRetries,
      structuredOutput: config.llm.structuredOutput,
      onUsage,
    }),
  whereabouts: (config) => `${config.llm.baseUrl} model ${config.llm.models.reasoning} (OpenAI-compatible)`,
  settings: (config) => ({
    provider: `openai-compatible at ${config.llm.baseUrl}`,
    structured_output: config.llm.structuredOutput,
  }),
  compactPrompts: () => false,
  async checkReachable(config) {
    const base = config.llm.baseUrl.replace(/\/$/, '');
    try {
      const res = await fetch(`${base}/models`, {
        headers: config.llm.apiKey ? { authorization: `Bearer ${config.llm.apiKey}` } : {},
        signal: AbortSignal.timeout(5_000),
      });
      await res.body?.cancel();
    } catch (err) {
      throw new Error(
        `no LLM answers at LLM_BASE_URL=${config.llm.baseUrl} (${err instanceof Error ? err.message : String(err)}). ` +
          'Set LLM_BASE_URL / LLM_API_KEY / LLM_MODEL (or put them in .env), ' +
          'or unset LLM_BASE_URL to use the embedded local model.',
      );
    }
  },
};
