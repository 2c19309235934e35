import { z } from 'zod';
import { unknownSqlIdentifiers, type SqlVocabulary } from './sql-vocabulary';

/**
 * The router's intents, as `RouterOutput` in @nl2p/prompts declares them (this lib may not
 * depend on that domain lib, so callers can pass `RouterOutput.shape.intent.options` instead).
 */
export const DEFAULT_ROUTER_INTENTS = ['list_streams', 'describe_stream', 'nl2sql', 'ask_user'] as const;

/** Longest free-text answer a structured output may carry; also bounds constrained decoding. */
export const MAX_STRUCTURED_TEXT = 200;

/** A zod enum of `names`, or a schema accepting nothing when there are none (z.enum needs one). */
function enumOf(names: readonly string[]): z.ZodType<string> {
  const unique = [...new Set(names)];
  return unique.length ? z.enum(unique as [string, ...string[]]) : z.never();
}

/**
 * The router's output schema with `stream` ENUMERATED from the grounded stream names: a name the
 * engine does not have fails validation, and with constrained decoding (llama.cpp grammar on the
 * local provider, `LLM_STRUCTURED_OUTPUT=json_schema` on OpenAI-compatible servers) cannot even
 * be generated. Every field is required (null when unused) because strict structured-output
 * modes require all properties; the parsed value is assignable to `RouterOutput`.
 *
 * Usage: `llm.json({ role: 'router', messages: routerMessages(e), schema: routerSchemaFor(e.streams), schemaName: 'router' })`.
 */
export function routerSchemaFor<const I extends readonly [string, ...string[]] = typeof DEFAULT_ROUTER_INTENTS>(
  streams: readonly string[],
  intents: I = DEFAULT_ROUTER_INTENTS as unknown as I,
) {
  return z.object({
    intent: z.enum(intents as unknown as [I[number], ...I[number][]]),
    // With no streams the only valid value is null; z.never().nullable() says exactly that.
    stream: enumOf(streams).nullable(),
    question: z.string().max(MAX_STRUCTURED_TEXT).nullable(),
  });
}

/** What {@link routerSchemaFor} parses to. */
export type RouterChoice = z.infer<ReturnType<typeof routerSchemaFor>>;

/**
 * The revise output `{sql, questions, assumptions}` (ReviseOutput in @nl2p/prompts) for one
 * grounded vocabulary: `sql` must be null or a statement naming only the vocabulary's streams,
 * columns, functions and keywords (plus aliases it declares with AS); the lists are bounded so a
 * small model cannot ramble until the token limit.
 *
 * JSON Schema cannot express "a string whose identifiers come from a list", so on
 * OpenAI-compatible servers the check is validation only (a bad name costs the corrective turn).
 * The local provider constrains the SQL while decoding when the caller also passes
 * `grammar: reviseGrammarFor(vocabulary)` (see {@link LocalLlmJsonRequest}).
 */
export function reviseSchemaFor(vocabulary: SqlVocabulary, options: ReviseSchemaOptions = {}) {
  const checkIdentifiers = options.checkIdentifiers ?? true;
  return z.object({
    sql: z
      .string()
      .min(1)
      .max(4000)
      .nullable()
      .superRefine((sql, ctx) => {
        if (sql === null || !checkIdentifiers) return;
        const unknown = unknownSqlIdentifiers(sql, vocabulary);
        if (unknown.length) {
          ctx.addIssue({
            code: 'custom',
            message: `names not in the catalog: ${unknown.join(', ')}. Use only the listed stream, columns and functions.`,
          });
        }
      }),
    questions: listOrEmpty(z.array(z.string().max(MAX_STRUCTURED_TEXT)).max(3)),
    assumptions: listOrEmpty(z.array(z.string().max(MAX_STRUCTURED_TEXT)).max(3)),
  });
}

/** Options of {@link reviseSchemaFor}. */
export interface ReviseSchemaOptions {
  /**
   * Reject SQL naming anything outside the vocabulary (default true). The workflow turns it off:
   * its local prevalidation checks the same names (with suggestions) and records the failure in
   * the repair loop, and a statement the engine refuses (e.g. `DELETE …`) must reach that check
   * rather than fail the LLM call; on the local provider the grammar excludes such names anyway.
   */
  checkIdentifiers?: boolean;
}

/**
 * A missing list reads as empty. Written as a preprocess rather than `.default([])` so the JSON
 * Schema keeps the field required and carries no `default` keyword, which strict structured-output
 * modes (OpenAI `json_schema` with `strict: true`) refuse.
 */
function listOrEmpty<T extends z.ZodType>(list: T) {
  return z.preprocess((v) => (v === undefined ? [] : v), list);
}

/** What {@link reviseSchemaFor} parses to; assignable to `ReviseOutput`. */
export type RevisedSql = z.infer<ReturnType<typeof reviseSchemaFor>>;
