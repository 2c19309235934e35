import type { QueryCompiler } from '../compiler';
import { compilePlan } from '../sql/plan-sql';
import { POSTGRES_DIALECT } from '../sql/sql-dialects';

export const postgresCompiler: QueryCompiler = {
  compile: (plan, tables) => compilePlan(plan, tables, POSTGRES_DIALECT),
};
