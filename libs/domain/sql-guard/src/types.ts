import type { Column, TargetKind } from '@nl2p/envelope';

/** The SQL dialect of a target; what the guard knows of each is in `GUARD_DIALECTS` (dialects.ts). */
export type SqlDialect = TargetKind;

/**
 * A callable function as far as the guard cares. `FunctionInfo` from `@nl2p/engine` fits as is;
 * `kind` is optional and, when present, turns on the aggregate checks (`'aggregate'`).
 */
export interface GroundedFunction {
  name: string;
  aliases?: readonly string[];
  kind?: string;
}

/** What a query is checked against; all of it comes from the engine, nothing is fetched here. */
export interface Grounding {
  dialect: SqlDialect;
  /** Every known stream (veloFlux) or table (SQL targets). Empty: the FROM check is skipped. */
  streams: readonly string[];
  /** The active stream or table the draft was grounded on. */
  stream: string;
  /** Columns of `stream`. Empty: the column checks are skipped (there is nothing to check against). */
  columns: readonly Column[];
  /** The engine's function catalog. Empty: the function check is skipped. */
  functions: readonly GroundedFunction[];
  /**
   * Columns of other streams or tables, by name. SQL targets check columns against the union of
   * these and `columns`; veloFlux uses the entry of the stream named in FROM when it is not `stream`.
   */
  columnsByTable?: Readonly<Record<string, readonly Column[]>>;
}

/** Outcome of {@link prevalidate}; `sql` is the cleaned text in both cases. */
export type PrevalidateResult =
  { ok: true; sql: string; warnings: string[] } | { ok: false; sql: string; errors: string[]; warnings: string[] };
