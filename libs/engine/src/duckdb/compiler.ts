import type { QueryCompiler } from '../compiler';
import { compilePlan } from '../sql/plan-sql';
import { DUCKDB_DIALECT } from '../sql/sql-dialects';

export const duckdbCompiler: QueryCompiler = {
  compile: (plan, tables) => compilePlan(plan, tables, DUCKDB_DIALECT),
};
