import path from 'node:path';
import type { LlmProviderProfile } from '../provider';
import { disposeLocalModels, LocalLlmClient } from './local-llm-client';

/** The embedded model: a GGUF file run in-process by node-llama-cpp, on the CPU. */
export const localProvider: LlmProviderProfile = {
  kind: 'local',
  // Not one of the GenAI conventions' well-known names (those are hosted APIs): the runtime.
  telemetryName: 'llama.cpp',
  create: (config, onUsage) => {
    const local = config.llm.local;
    return new LocalLlmClient({
      modelPath: local.modelPath,
      contextSize: local.contextSize,
      maxTokens: local.maxTokens,
      threads: local.threads,
      sequences: local.sequences,
      constrained: local.constrained,
      frequencyPenalty: local.frequencyPenalty,
      timeoutMs: config.llm.timeoutMs,
      onUsage,
    });
  },
  whereabouts: (config) =>
    `local model ${config.llm.local.modelPath} (in-process, CPU)\n             (for an OpenAI-compatible server set LLM_BASE_URL, LLM_API_KEY, LLM_MODEL)`,
  settings: (config) => ({
    provider: 'local (embedded, node-llama-cpp)',
    model: path.basename(config.llm.local.modelPath),
    constrained: String(config.llm.local.constrained),
    prompts: config.llm.local.prompts,
    threads: String(config.llm.local.threads),
  }),
  compactPrompts: (config) => config.llm.local.prompts === 'compact',
  async warmUp(client, config) {
    if (!(client instanceof LocalLlmClient)) return 'no local model to load';
    const info = await client.warmUp();
    return (
      `local model ${info.model} loaded in ${info.loadMs} ms (context ${info.contextSize} tokens, ` +
      `${info.threads} threads, ${info.sequences} sequence(s), constrained decoding ` +
      `${config.llm.local.constrained ? 'on' : 'OFF'})`
    );
  },
  dispose: disposeLocalModels,
};
