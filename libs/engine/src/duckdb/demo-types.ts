import type { DemoTypeNames } from '../sql/demo-dataset';

/** DuckDB's spelling of the demo dataset's column types (a pure module: the linking specs read it). */
export const DUCKDB_DEMO_TYPES: DemoTypeNames = {
  integer: 'INTEGER',
  double: 'DOUBLE',
  text: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  decimal: 'DECIMAL(10,2)',
};
