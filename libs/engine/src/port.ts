import type { ClassifiedFailure, Column, FailureKind, Preview, SinkConfig, TargetKind } from '@nl2p/envelope';
import type { ForeignKey, QueryPlan } from '@nl2p/query-plan';

/** One call to the engine, recorded for metrics and the trace view. */
export interface EngineCall {
  method: string;
  /** The route pattern (e.g. `/pipelines/:id`), never the raw id, so records group well. */
  route: string;
  status: number | null;
  latency_ms: number;
  retries: number;
}

export interface StreamInfo {
  name: string;
  columns: Column[];
  /** SQL targets: the primary key's columns, when the table declares one. */
  primaryKey?: string[];
  /** SQL targets: the foreign keys the table declares (what join paths follow first). */
  foreignKeys?: ForeignKey[];
  /** SQL targets: what the database's `COMMENT ON TABLE` says the table holds. */
  comment?: string;
}

export interface FunctionInfo {
  name: string;
  kind: 'scalar' | 'aggregate' | 'stateful' | 'window';
  aliases: string[];
  /** Compact signature such as `round(x, [precision])`. */
  signature: string;
  description: string;
  /** Where it may appear: select / where / group_by (veloFlux). Empty = anywhere. */
  contexts: string[];
}

export interface SyntaxRule {
  id: string;
  title: string;
  status: 'supported' | 'partial' | 'unsupported';
  /** Constraints and workarounds worth telling the model, one sentence each. */
  notes: string[];
}

/** What grounds drafting: the engine's functions and the SQL it accepts. */
export interface Catalog {
  dialect: TargetKind;
  functions: FunctionInfo[];
  syntax: SyntaxRule[];
  /** Dialect facts the engine's catalog does not state but its behaviour does (contract §7). */
  dialectNotes: string[];
  /**
   * SQL targets: table → text column → distinct values of its low-cardinality text columns, so
   * the linker can tie a request's words to data. Streams hold no rows to read: absent there.
   */
  values?: Record<string, Record<string, string[]>>;
}

export type EngineErrorKind =
  'syntax' | 'unknown_stream' | 'unknown_column' | 'unknown_function' | 'semantic' | 'other';

export type ValidationResult =
  | {
      ok: true;
      tmpId: string;
      /** SQL targets: validation ran the query, read-only and row-limited; these are its first rows. */
      preview?: Preview;
      /** SQL targets: why there are no rows although the plan was accepted (its time limit). */
      previewError?: string;
      /**
       * veloFlux: the engine refused the sink settings although it accepted the SQL; the temp
       * pipeline was then built with a `nop` sink, so its plan shows that sink instead.
       */
      sinkError?: string;
    }
  | { ok: false; tmpId: string; kind: EngineErrorKind; error: string };

/** A candidate run on sample rows (streaming targets). */
export interface DryRunRequest {
  sql: string;
  /** The stream the SQL reads; the dry run reads a temporary copy of it instead. */
  stream: string;
  /** The plan the SQL was compiled from, when there is one: it decides which rows satisfy it. */
  plan: QueryPlan | null;
  /** The temporary name of the dry run's input stream and pipeline (`__nl2pipeline_tmp__…_dry`). */
  id: string;
}

/** What a dry run saw. */
export interface DryRunReport {
  /**
   * `ran`: rows went in and the counters were read; `runtime_error`: the query failed on rows;
   * `not_run`: the dry run could not feed rows (no broker, the engine's source could not
   * connect, …), which says nothing about the candidate.
   */
  outcome: 'ran' | 'runtime_error' | 'not_run';
  rowsFed: number;
  rowsOut: number;
  /** Rows fed that meet the plan's conditions; null without a plan. */
  satisfying: number | null;
  /** The engine's own words (`last_error`) for a runtime error, or why it did not run. */
  error: string | null;
  /** The window's flush was not awaited: it would take longer than the time limit. */
  windowCut: { window: string; waitMs: number; limitMs: number } | null;
  /** The window it waited for, if any (`a 10 s tumbling window`). */
  window: string | null;
  elapsedMs: number;
}

/**
 * A target engine (ARCHITECTURE §7): grounding reads, validation, explain and cleanup.
 * Adapters: veloFlux (Manager REST API); DuckDB and PostgreSQL later.
 */
export interface EngineTarget {
  readonly kind: TargetKind;
  listStreams(): Promise<StreamInfo[]>;
  /** `null` when the engine does not know the stream. */
  describeStream(name: string): Promise<StreamInfo | null>;
  loadCatalog(): Promise<Catalog>;
  /**
   * Validates one SELECT against the engine under the temp id. Leaves nothing behind on failure
   * (the temp pipeline is deleted after every failed create); on success the temp pipeline stays
   * until `cleanup`, so `explain` can read its plan. Streaming targets build the temp pipeline
   * from the request the person will apply (`buildPipelineRequest` with `sink`), so the plan
   * shown is that pipeline's, sink and output included.
   */
  validate(sql: string, tmpId: string, sink: SinkConfig): Promise<ValidationResult>;
  /**
   * The engine's plan. veloFlux reads the temp pipeline created by `validate`; SQL targets create
   * nothing and run `EXPLAIN` on `sql` (so any process can explain, not only the validating one).
   */
  explain(tmpId: string, sql: string): Promise<string>;
  /** Deletes the temp pipeline; a missing one is fine. Refuses ids without the temp prefix. */
  cleanup(tmpId: string): Promise<void>;
  /**
   * Streaming targets: every temp pipeline id the engine stores (any deployment's), and the names
   * of temp streams (a dry run's input) no pipeline of that name accounts for.
   */
  listTmpPipelines?(): Promise<string[]>;
  /**
   * Streaming targets: runs the candidate on sample rows in a temporary pipeline reading a
   * temporary input, and deletes both before returning, whatever happened.
   */
  dryRun?(request: DryRunRequest): Promise<DryRunReport>;
  /** The request the person applies by hand (`POST /pipelines`); `null` for SQL targets. */
  buildPipelineRequest(sql: string, pipelineId: string, sink: SinkConfig): Record<string, unknown> | null;
  /**
   * SQL targets: the first rows of the validated query, read-only and time-limited. Streaming
   * engines have no rows to show before the pipeline runs, so they leave this out.
   */
  preview?(sql: string): Promise<Preview>;
  /** SQL targets: up to `limit` rows of the validated query, under the preview's guard and time limit. */
  run?(sql: string, limit: number): Promise<Preview>;
}

/** A SQL target refused or failed to run a query (time limit, read-only violation, …). */
export class TargetQueryError extends Error implements ClassifiedFailure {
  override readonly name: string = 'TargetQueryError';
  readonly failureKind: FailureKind = 'engine_refused';
}

/**
 * A query ran past the target's time limit. Not a verdict on the SQL (it was accepted, and may
 * just read much data), so validation keeps it apart from a query that failed when it ran.
 */
export class QueryTimeLimitError extends TargetQueryError {
  override readonly name = 'QueryTimeLimitError';
}
