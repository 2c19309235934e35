import type { TargetProfile } from '../targets';
import { DuckDbTarget } from './duckdb-target';
import { duckdbCompiler } from './compiler';

export const duckdbProfile: TargetProfile = {
  kind: 'duckdb',
  label: 'DuckDB',
  sourceNoun: 'table',
  streaming: false,
  configured: () => true,
  instance: (config) => config.duckdb.path,
  create: (config) =>
    new DuckDbTarget({
      path: config.duckdb.path,
      previewRows: config.sqlTargets.previewRows,
      queryTimeoutMs: config.sqlTargets.queryTimeoutMs,
    }),
  compiler: duckdbCompiler,
};
