import { QueryPlanError } from '@nl2p/query-plan';
import type { QueryCompiler } from '../compiler';

// Placeholder until the postgres compiler lands (issue 14): refuses every plan, so plan mode falls back.
export const postgresCompiler: QueryCompiler = {
  compile() {
    throw new QueryPlanError('the postgres query compiler is not written yet');
  },
};
