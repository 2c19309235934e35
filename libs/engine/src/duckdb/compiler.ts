import { QueryPlanError } from '@nl2p/query-plan';
import type { QueryCompiler } from '../compiler';

// Placeholder until the duckdb compiler lands (issue 14): refuses every plan, so plan mode falls back.
export const duckdbCompiler: QueryCompiler = {
  compile() {
    throw new QueryPlanError('the duckdb query compiler is not written yet');
  },
};
