import { createHash } from 'node:crypto';
import type { AppConfig } from '@nl2p/config';
import type { TargetKind } from '@nl2p/envelope';
import { DuckDbTarget, ManagerClient, PostgresTarget, VelofluxTarget, type EngineTarget } from '@nl2p/engine';
import { LocalLlmClient, OpenAiLlmClient, type LlmClient, type LlmUsage } from '@nl2p/llm';
import { recordEngineCall, recordLlmCall } from '@nl2p/telemetry';

/**
 * The engines a deployment can reach, built on first use: each session names its target, and a
 * worker serves sessions of every configured target.
 */
export class Engines {
  private readonly built = new Map<TargetKind, EngineTarget>();

  constructor(private readonly config: AppConfig) {}

  for(kind: TargetKind): EngineTarget {
    let engine = this.built.get(kind);
    if (!engine) {
      engine = this.create(kind);
      this.built.set(kind, engine);
    }
    return engine;
  }

  /** Targets a session may choose here. */
  available(): TargetKind[] {
    return this.config.postgres.url ? ['veloflux', 'duckdb', 'postgres'] : ['veloflux', 'duckdb'];
  }

  /**
   * Identifies the engine instance behind a target, so catalogs of two engines never mix in the
   * cache. Hashed: a connection string can hold a password.
   */
  key(kind: TargetKind): string {
    const raw =
      kind === 'veloflux'
        ? this.config.veloflux.url
        : kind === 'duckdb'
          ? this.config.duckdb.path
          : (this.config.postgres.url ?? '');
    return createHash('sha256').update(raw).digest('hex').slice(0, 12);
  }

  async close(): Promise<void> {
    for (const engine of this.built.values()) {
      if ('close' in engine && typeof engine.close === 'function') await (engine.close as () => Promise<void>)();
    }
    this.built.clear();
  }

  private create(kind: TargetKind): EngineTarget {
    const { previewRows, queryTimeoutMs } = this.config.sqlTargets;
    switch (kind) {
      case 'veloflux':
        return new VelofluxTarget(
          new ManagerClient({
            baseUrl: this.config.veloflux.url,
            timeoutMs: this.config.veloflux.timeoutMs,
            retries: this.config.veloflux.retries,
            backoffMs: this.config.veloflux.backoffMs,
            onCall: recordEngineCall,
          }),
        );
      case 'duckdb':
        return new DuckDbTarget({ path: this.config.duckdb.path, previewRows, queryTimeoutMs });
      case 'postgres':
        if (!this.config.postgres.url) throw new Error('target postgres is not configured: set POSTGRES_URL');
        return new PostgresTarget({
          connectionString: this.config.postgres.url,
          schema: this.config.postgres.schema,
          previewRows,
          statementTimeoutMs: queryTimeoutMs,
        });
    }
  }
}

/** Whether the LLM nodes send compact prompts: the local provider's small models, unless told otherwise. */
export function compactPrompts(config: AppConfig): boolean {
  return config.llm.provider === 'local' && config.llm.local.prompts === 'compact';
}

/**
 * The configured LLM provider (`config.llm.provider`): the OpenAI-compatible client, or the
 * embedded local model (node-llama-cpp, loaded once per process, see {@link LocalModelLifecycle}).
 * Either way every call lands in the current node run's call log and as a GenAI span.
 */
export function createLlmClient(config: AppConfig): LlmClient {
  const record =
    (provider: string) =>
    (u: LlmUsage): void =>
      recordLlmCall({
        provider,
        model: u.model,
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        latency_ms: u.latency_ms,
        finish_reason: u.finish_reason,
        retries: u.retries,
      });
  if (config.llm.provider === 'local') {
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
      // Not one of the GenAI conventions' well-known names (those are hosted APIs): the runtime.
      onUsage: record('llama.cpp'),
    });
  }
  return new OpenAiLlmClient({
    baseUrl: config.llm.baseUrl,
    apiKey: config.llm.apiKey,
    models: config.llm.models,
    timeoutMs: config.llm.timeoutMs,
    maxRetries: config.llm.maxRetries,
    structuredOutput: config.llm.structuredOutput,
    onUsage: record('openai'),
  });
}
