import type { AppConfig } from '@nl2p/config';
import { ManagerClient, VelofluxTarget, type EngineTarget } from '@nl2p/engine';
import { OpenAiLlmClient, type LlmClient } from '@nl2p/llm';
import { recordEngineCall, recordLlmCall } from '@nl2p/telemetry';

/** The configured engine; every call lands in the current node run's call log. */
export function createEngineTarget(config: AppConfig): EngineTarget {
  switch (config.target) {
    case 'veloflux':
      return new VelofluxTarget(
        new ManagerClient({
          baseUrl: config.veloflux.url,
          timeoutMs: config.veloflux.timeoutMs,
          retries: config.veloflux.retries,
          backoffMs: config.veloflux.backoffMs,
          onCall: recordEngineCall,
        }),
      );
    case 'duckdb':
    case 'postgres':
      throw new Error(`target ${config.target} is not available yet; set TARGET=veloflux`);
  }
}

/** A stable key for the engine instance, so catalogs of different engines never mix. */
export function engineKey(config: AppConfig): string {
  return config.target === 'veloflux' ? config.veloflux.url : config.target;
}

/** The OpenAI-compatible client; every call lands in the current node run's call log. */
export function createLlmClient(config: AppConfig): LlmClient {
  return new OpenAiLlmClient({
    baseUrl: config.llm.baseUrl,
    apiKey: config.llm.apiKey,
    models: config.llm.models,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    structuredOutput: config.llm.structuredOutput,
    onUsage: (u) =>
      recordLlmCall({
        model: u.model,
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        latency_ms: u.latency_ms,
        finish_reason: u.finish_reason,
        retries: u.retries,
      }),
  });
}
