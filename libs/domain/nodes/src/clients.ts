import type { AppConfig } from '@nl2p/config';
import type { TargetKind } from '@nl2p/envelope';
import {
  SqlSources,
  configuredTargets,
  instanceKey,
  targetProfile,
  type EngineTarget,
  type TargetProfile,
} from '@nl2p/engine';
import {
  createLlmClient as createProviderClient,
  llmProvider,
  type LlmClient,
  type LlmRole,
  type LlmUsage,
} from '@nl2p/llm';
import { recordEngineCall, recordLlmCall } from '@nl2p/telemetry';

/**
 * The engines a deployment can reach, built on first use from the target registry: each session
 * names its target, and a worker serves sessions of every configured target.
 */
export class Engines {
  private readonly built = new Map<TargetKind, EngineTarget>();

  private sqlSources: SqlSources | null = null;

  constructor(private readonly config: AppConfig) {}

  /** Every configured SQL source (`SQL_SOURCES`), for sessions that address them all; opened on first use. */
  sources(): SqlSources {
    this.sqlSources ??= SqlSources.fromConfig(this.config);
    return this.sqlSources;
  }

  for(kind: TargetKind): EngineTarget {
    let engine = this.built.get(kind);
    if (!engine) {
      engine = targetProfile(kind).create(this.config, { onEngineCall: recordEngineCall });
      this.built.set(kind, engine);
    }
    return engine;
  }

  /** What the registry knows about a target (label, compiler, whether it streams). */
  profile(kind: TargetKind): TargetProfile {
    return targetProfile(kind);
  }

  /** Targets a session may choose here. */
  available(): TargetKind[] {
    return configuredTargets(this.config);
  }

  /** Identifies the engine instance behind a target, so catalogs of two engines never mix in the cache. */
  key(kind: TargetKind): string {
    return instanceKey(kind, this.config);
  }

  async close(): Promise<void> {
    for (const engine of this.built.values()) {
      if ('close' in engine && typeof engine.close === 'function') await (engine.close as () => Promise<void>)();
    }
    this.built.clear();
    await this.sqlSources?.close();
    this.sqlSources = null;
  }
}

/** Whether the LLM nodes send compact prompts (the provider's small models, unless told otherwise). */
export function compactPrompts(config: AppConfig): boolean {
  return llmProvider(config).compactPrompts(config);
}

/**
 * The configured LLM provider's client (`config.llm.provider`, see `LLM_PROVIDERS` in @nl2p/llm),
 * with every call landing in the current node run's call log and as a GenAI span.
 */
export function createLlmClient(config: AppConfig): LlmClient {
  return createProviderClient(config, (provider, u: LlmUsage, role: LlmRole) =>
    recordLlmCall(
      {
        provider,
        model: u.model,
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        latency_ms: u.latency_ms,
        finish_reason: u.finish_reason,
        retries: u.retries,
      },
      role,
    ),
  );
}
