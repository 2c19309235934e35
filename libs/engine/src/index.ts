export * from './port';
export * from './manager-client';
export * from './veloflux/veloflux-target';
export * from './veloflux/classify';
export * from './veloflux/catalog';
export * from './duckdb/duckdb-target';
export * from './duckdb/demo-data';
export * from './sql/demo-dataset';
export type { ColumnValues } from './sql/column-values';
export {
  RefusedQueryError,
  MAX_GUARDED_SQL_LENGTH,
  type GuardVerdict,
  type ReadOnlyGuard,
} from './sql/read-only-guard';
export { checkDuckDbSelect } from './duckdb/duckdb-parser';
export { checkPostgresSelect } from './postgres/postgres-parser';
export * from './postgres/postgres-target';
export * from './postgres/demo-data';
export * from './compiler';
export * from './targets';
export * from './sources/index';
export {
  SampleOutputs,
  type QueryOutput,
  type SampleOutputsReport,
  type SampleOutputsRequest,
} from './veloflux/dry-run/sample-outputs';
