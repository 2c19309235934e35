import type { QueryPlan } from '@nl2p/query-plan';
import { resolveTableName, type SourcesCatalog } from './sql-sources';

/**
 * A plan as a model or a person wrote it, with bare table names where one source is meant,
 * turned into source-qualified names. A name two sources hold is a question; one no source
 * holds is left as it is for the catalog check to refuse with the closest names.
 */
export function qualifyPlan(plan: QueryPlan, catalog: SourcesCatalog): { plan: QueryPlan } | { question: string } {
  const questions = new Set<string>();
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string' && (key === 'source' || key === 'table')) {
      const resolved = resolveTableName(value, catalog);
      if (resolved && 'question' in resolved) questions.add(resolved.question);
      return resolved && 'table' in resolved ? resolved.table : value;
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, null));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  const qualified = walk(plan, null) as QueryPlan;
  return questions.size ? { question: [...questions].join(' ') } : { plan: qualified };
}
