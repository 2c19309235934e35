import type { TargetKind } from '@nl2p/envelope';
import type { Structure } from './structure';
import { checkSqlTarget } from './sql-target/check';
import type { Grounding } from './types';
import type { Findings } from './findings';
import { checkVeloflux } from './veloflux/check';

/**
 * What the local check knows of each target's SQL, in one place: the rest of the guard reads these
 * properties and never a target's name. A new target adds its entry here (the `Record` over
 * `TargetKind` makes the compiler ask for it).
 */
export interface GuardDialect {
  /** The engine's name in messages (`not a DuckDB function`). */
  label: string;
  /** What FROM reads, in messages: a `stream` or a `table`. */
  sourceNoun: 'stream' | 'table';
  /** Backticks quote identifiers (veloFlux's StreamDialect); elsewhere they are stray characters. */
  backtickIdentifiers: boolean;
  /**
   * Words the statement may begin with. `firstTokenOnly`: the very first token must be one of them
   * (veloFlux parses nothing before SELECT); otherwise leading parentheses are skipped.
   */
  statementStart: { words: readonly string[]; firstTokenOnly: boolean };
  /** DuckDB's FROM-first form: `FROM t SELECT …`, also inside parentheses. */
  fromFirst: boolean;
  /**
   * The target runs queries on a database, so side-effecting functions and file reads
   * (`read_csv('…')`, `FROM 'file.parquet'`) must be refused here too (the adapter's guard refuses
   * them again on the engine's own parse tree); a streaming engine has neither.
   */
  database: boolean;
  /** Why WITH is refused, when the engine has no common table expressions. */
  withUnsupported: string | null;
  /** The dialect's own rules over the parsed structure. */
  rules(structure: Structure, grounding: Grounding, findings: Findings): void;
}

/** A database queried with SQL: what DuckDB and PostgreSQL share. */
function sqlDatabase(label: string, fromFirst: boolean): GuardDialect {
  return {
    label,
    sourceNoun: 'table',
    backtickIdentifiers: false,
    statementStart: { words: fromFirst ? ['select', 'with', 'from'] : ['select', 'with'], firstTokenOnly: false },
    fromFirst,
    database: true,
    withUnsupported: null,
    rules: (structure, grounding, findings) => checkSqlTarget(structure, grounding, findings, { label, fromFirst }),
  };
}

export const GUARD_DIALECTS: Readonly<Record<TargetKind, GuardDialect>> = {
  veloflux: {
    label: 'veloFlux',
    sourceNoun: 'stream',
    backtickIdentifiers: true,
    statementStart: { words: ['select'], firstTokenOnly: true },
    fromFirst: false,
    database: false,
    withUnsupported: 'WITH (common table expressions) is not supported by veloFlux',
    rules: checkVeloflux,
  },
  duckdb: sqlDatabase('DuckDB', true),
  postgres: sqlDatabase('PostgreSQL', false),
};
