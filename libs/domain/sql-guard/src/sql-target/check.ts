import type { Findings } from '../findings';
import type { Structure } from '../structure';
import type { Grounding } from '../types';
import { analyzeSqlTarget, type SqlTargetDialect } from './query';
import { SQL_TARGET_RULES } from './rules';

/**
 * Existence checks for DuckDB and PostgreSQL queries, limited to what a lexer can judge reliably:
 * tables after FROM/JOIN, columns that are neither aliases nor names derived inside the query, and
 * functions when a catalog is given. Unsupported syntax is left to the database.
 */
export function checkSqlTarget(
  structure: Structure,
  grounding: Grounding,
  out: Findings,
  dialect: SqlTargetDialect,
): void {
  const query = analyzeSqlTarget(structure, grounding, dialect);
  for (const rule of SQL_TARGET_RULES) rule.check(query, out);
}
