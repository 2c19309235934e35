/**
 * node-llama-cpp builds its JSON grammar from a subset of JSON Schema that differs from what
 * `z.toJSONSchema` emits: it knows `oneOf` but not `anyOf` (zod's form of `.nullable()`), and
 * anything it does not recognise silently becomes `null`. A nullable enum would therefore be
 * forced to null. This rewrites zod's output into that subset and refuses what cannot be
 * expressed, instead of letting the grammar quietly mean something else.
 */

type Json = Record<string, unknown>;

/** Keywords that only annotate, or that zod's validation (which always runs afterwards) enforces. */
const DROPPED = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'examples',
  'required',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'readOnly',
  'writeOnly',
  'id',
]);
/** Keywords the grammar cannot honour: failing loudly beats a grammar that means something else. */
const UNSUPPORTED = ['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'propertyNames', 'dependentSchemas'];
/** String formats node-llama-cpp has grammars for; others are left to validation. */
const FORMATS = new Set(['date', 'time', 'date-time']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's `z.never()`: `{ not: {} }`, a schema no value satisfies. */
function isNever(schema: unknown): boolean {
  return isObject(schema) && isObject(schema.not) && Object.keys(schema.not).length === 0;
}

/**
 * Rewrites a JSON Schema produced by `z.toJSONSchema` into the subset node-llama-cpp's
 * `createGrammarForJsonSchema` understands. Throws (an Error naming the path) on constructs that
 * have no grammar form.
 */
export function toGrammarJsonSchema(schema: unknown, path = '$'): Json {
  if (!isObject(schema)) throw new Error(`${path}: a JSON schema must be an object`);
  if (isNever(schema)) throw new Error(`${path}: the schema accepts no value`);
  const unsupported = UNSUPPORTED.filter((k) => k in schema);
  if (unsupported.length) throw new Error(`${path}: ${unsupported.join(', ')} cannot be expressed as a grammar`);

  const alternativesKey = 'anyOf' in schema ? 'anyOf' : 'oneOf' in schema ? 'oneOf' : undefined;
  if (alternativesKey) {
    const raw = schema[alternativesKey];
    if (!Array.isArray(raw)) throw new Error(`${path}.${alternativesKey}: must be an array`);
    // A never alternative (e.g. an enum of an empty catalog made nullable) contributes nothing.
    const kept = raw.filter((alt) => !isNever(alt));
    if (!kept.length) throw new Error(`${path}: no alternative accepts a value`);
    const converted = kept.map((alt, i) => toGrammarJsonSchema(alt, `${path}.${alternativesKey}[${i}]`));
    return converted.length === 1 ? converted[0] : { oneOf: converted };
  }

  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    switch (key) {
      case 'properties': {
        if (!isObject(value)) throw new Error(`${path}.properties: must be an object`);
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, sub]) => [name, toGrammarJsonSchema(sub, `${path}.${name}`)]),
        );
        break;
      }
      case 'items':
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : toGrammarJsonSchema(value, `${path}.${key}`);
        break;
      case 'prefixItems':
        if (!Array.isArray(value)) throw new Error(`${path}.prefixItems: must be an array`);
        out.prefixItems = value.map((sub, i) => toGrammarJsonSchema(sub, `${path}[${i}]`));
        break;
      case '$defs': {
        if (!isObject(value)) throw new Error(`${path}.$defs: must be an object`);
        out.$defs = Object.fromEntries(
          Object.entries(value).map(([name, sub]) => [name, toGrammarJsonSchema(sub, `${path}.$defs.${name}`)]),
        );
        break;
      }
      case 'format':
        if (typeof value === 'string' && FORMATS.has(value)) out.format = value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}
