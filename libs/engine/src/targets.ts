import { createHash } from 'node:crypto';
import type { AppConfig } from '@nl2p/config';
import type { TargetKind } from '@nl2p/envelope';
import type { QueryPlan } from '@nl2p/query-plan';
import type { QueryCompiler } from './compiler';
import type { EngineCall, EngineTarget } from './port';
import type { ReadOnlyGuard } from './sql/read-only-guard';
import { duckdbProfile } from './duckdb/profile';
import { postgresProfile } from './postgres/profile';
import { velofluxProfile } from './veloflux/profile';

/**
 * Everything the product knows about one kind of target, in one place (ARCHITECTURE §7): how to
 * reach it, what its SQL is called, how a plan compiles to it. Nothing outside this registry
 * branches on a target's name; a new target is a folder with a profile and one entry below.
 */
export interface TargetProfile {
  kind: TargetKind;
  /** Shown to people: `veloFlux`, `DuckDB`, `PostgreSQL`. */
  label: string;
  /** What the target calls the things queries read from. */
  sourceNoun: 'stream' | 'table';
  /** Streaming engine: validated by a temp pipeline, output is a pipeline request, no preview. */
  streaming: boolean;
  /** Whether this deployment can reach the target (e.g. PostgreSQL needs POSTGRES_URL). */
  configured(config: AppConfig): boolean;
  /** The setting that enables the target when `configured` says no. */
  enabledBy?: string;
  /** The setting that says where the engine is: what to fix when it cannot be reached. */
  locatedBy: string;
  /** Identifies the engine instance (hashed: a connection string may hold a password). */
  instance(config: AppConfig): string;
  /** Where the target is, for people (start banner): never a secret. */
  whereabouts(config: AppConfig): string;
  /** The adapter; built once per process by the caller. */
  create(config: AppConfig, hooks: TargetHooks): EngineTarget;
  compiler: QueryCompiler;
  /**
   * Words of the target's SQL beyond the SELECT subset every target shares (`DEFAULT_SQL_KEYWORDS`
   * in @nl2p/llm) that a grammar-constrained model may write: what its dialect notes and syntax
   * rules teach. Never a DDL/DML word: the grammar built from these cannot spell one.
   */
  grammarKeywords: readonly string[];
  /**
   * SQL targets: the adapter's own read-only check (the engine's own parser under the shared
   * policy of `sql/read-only-guard.ts`), for callers that judge SQL for this target outside an
   * adapter (the evals). Streaming targets have none: their engine accepts only pipeline SQL.
   */
  readOnlyGuard?: ReadOnlyGuard;
  /**
   * The engine's error names a column, source or function it does not have: the draft was not
   * grounded in what the engine really has (the evals count these; they must never happen).
   */
  namesUnknownObject(error: string): boolean;
  /**
   * Reviews the turn's assumptions against the engine's own plan of a compiled query, before the
   * person sees them (e.g. where veloFlux applies a WHERE beside a window).
   */
  reviewAssumptions?: (plan: QueryPlan | null, explain: string, assumptions: string[]) => string[];
}

/** Callbacks a process hands every adapter (telemetry, without the engine lib depending on it). */
export interface TargetHooks {
  onEngineCall?: (call: EngineCall) => void;
}

export const TARGETS: Readonly<Record<TargetKind, TargetProfile>> = {
  veloflux: velofluxProfile,
  duckdb: duckdbProfile,
  postgres: postgresProfile,
};

export function targetProfile(kind: TargetKind): TargetProfile {
  return TARGETS[kind];
}

/** Targets a session may choose in this deployment. */
export function configuredTargets(config: AppConfig): TargetKind[] {
  return (Object.keys(TARGETS) as TargetKind[]).filter((k) => TARGETS[k].configured(config));
}

/** A short stable key of the engine instance behind a target (catalog cache key). */
export function instanceKey(kind: TargetKind, config: AppConfig): string {
  return createHash('sha256').update(TARGETS[kind].instance(config)).digest('hex').slice(0, 12);
}
