import type { TargetProfile } from '../targets';
import { SQL_DATABASE_KEYWORDS } from '../sql/sql-syntax-rules';
import { checkDuckDbSelect } from './duckdb-parser';
import { DuckDbTarget } from './duckdb-target';
import { duckdbCompiler } from './compiler';

/**
 * DuckDB's wording for a name that does not exist: a column (or struct field), a table or view,
 * a function of any kind. Stable across DuckDB 1.x (no error codes in the Node API).
 */
const UNKNOWN_NAME = new RegExp(
  [
    'Referenced column .* not found',
    'does not have a column named',
    'Column .* not found',
    'Referenced struct field .* not found',
    'Could not find key .* in struct',
    'Function with name .* does not exist',
    '(Table|View|Table or view) with name .* does not exist',
    'Referenced table .* not found',
    '(Schema|Catalog) with name .* does not exist',
  ].join('|'),
  'i',
);

export const duckdbProfile: TargetProfile = {
  kind: 'duckdb',
  label: 'DuckDB',
  sourceNoun: 'table',
  streaming: false,
  configured: () => true,
  locatedBy: 'DUCKDB_PATH',
  instance: (config) => config.duckdb.path,
  whereabouts: (config) => `embedded, the database file ${config.duckdb.path}`,
  create: (config) =>
    new DuckDbTarget({
      path: config.duckdb.path,
      previewRows: config.sqlTargets.previewRows,
      queryTimeoutMs: config.sqlTargets.queryTimeoutMs,
    }),
  readOnlyGuard: checkDuckDbSelect,
  compiler: duckdbCompiler,
  namesUnknownObject: (error) => UNKNOWN_NAME.test(error),
  grammarKeywords: [...SQL_DATABASE_KEYWORDS, 'TRY_CAST', 'HUGEINT', 'TINYINT', 'UBIGINT'],
};
