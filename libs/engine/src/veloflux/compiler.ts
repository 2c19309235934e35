import { QueryPlanError } from '@nl2p/query-plan';
import type { QueryCompiler } from '../compiler';

// Placeholder until the veloflux compiler lands (issue 14): refuses every plan, so plan mode falls back.
export const velofluxCompiler: QueryCompiler = {
  compile() {
    throw new QueryPlanError('the veloflux query compiler is not written yet');
  },
};
