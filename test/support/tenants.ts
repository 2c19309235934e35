import { createHash } from 'node:crypto';
import type { StackOptions } from './stack';

export const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * The stack the tenant-scoped surfaces (glossary, confirmed questions) are tested on: two tenants,
 * `acme` with `keyA` and `globex` with `keyB`, over DuckDB's demo data read in plan mode, a
 * conclusive reading trusted (so the turns never reach the scripted LLM).
 */
export function twoTenantsOnDemo(keyA: string, keyB: string): Omit<StackOptions, 'managerUrl' | 'llmUrl'> {
  return {
    duckdb: true,
    env: {
      AUTH_DISABLED: 'false',
      API_KEYS: `acme:${sha256(keyA)},globex:${sha256(keyB)}`,
      TARGET: 'duckdb',
      LINKING: 'true',
      DRAFT_MODE: 'plan',
      PLAN_TRUST_LINKS: 'true',
    },
  };
}
