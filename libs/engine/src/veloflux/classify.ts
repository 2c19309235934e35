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

/**
 * The Manager refused the pipeline's sink settings (type, props, encoder or output), not its SQL:
 * the recorded texts of every sink build error (exchanges `orphan_*_create`), plus the 500 it
 * answers when it cannot decode sink props of the wrong type (`qos: "1"`). An LLM cannot repair
 * these by changing the SQL; the person has to change the sink.
 */
export function isSinkConfigError(body: string): boolean {
  return SINK_CONFIG_ERRORS.some((pattern) => pattern.test(body));
}

const SINK_CONFIG_ERRORS: readonly RegExp[] = [
  /\bsink requires \w+/, // mqtt sink requires broker_url / topic
  /\bunsupported sink type: /,
  /\bencoder kind `[^`]*` not registered/,
  /\binvalid \w+ sink props: /, // invalid nop sink props: invalid type …
  /\bmemory topic `[^`]*` not declared/,
  /\bsink props missing \w+/, // kuksa sink props missing addr
  /\binvalid sink output\.\w+/,
  /\bsink props: decode pipeline /, // the 500 for props of the wrong type
];
