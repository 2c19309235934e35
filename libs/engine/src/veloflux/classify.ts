import type { EngineErrorKind } from '../port';

/**
 * Classifies a veloFlux create error body (CONTRACT §8). The engine has no error codes, only
 * free text, so this uses the same substrings as the engine's own fuzz test. Order matters: a
 * planner message for an unknown column also carries `pipeline build error:`.
 */
export function classifyEngineError(body: string): EngineErrorKind {
  if (body.includes('parse pipeline')) return 'syntax';
  if (body.includes('missing from storage') || body.includes('not found in catalog')) return 'unknown_stream';
  // `field \`x\` not found in struct`; a bare "field `" would also catch serde's 422 texts
  // (`missing field \`sql\``).
  if (
    body.includes('Column not found') ||
    body.includes('No schema bindings') ||
    body.includes('not found in struct')
  ) {
    return 'unknown_column';
  }
  if (body.includes('Unknown function')) return 'unknown_function';
  if (body.includes('pipeline build error:')) return 'semantic';
  return 'other';
}
