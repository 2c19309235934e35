import { z } from 'zod';
import { QueryPlan } from '@nl2p/query-plan';
import { WordMeaning, type Resolution } from './conversation';

// The tenant's glossary: what a word means in this deployment's data, taught once and read by every
// session of the tenant exactly like a word explained in a session (a resolution from `glossary`).

/** A glossary term as people write it: one word or a few (`revenue`, `EU orders`). */
export const GlossaryTerm = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((t) => /[\p{L}\p{N}]/u.test(t), 'a term needs at least one letter or digit');

/** The key a term is stored under: case and spacing do not make two terms. */
export function termKey(term: string): string {
  return term.trim().toLowerCase().replace(/\s+/g, ' ');
}

export const GlossaryEntrySchema = z
  .object({
    term: z.string(),
    means: WordMeaning,
    tenant: z.string(),
    created_by: z.string().describe('Who taught it: the `created_by` given, else the tenant, or `session <id>`'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({
    id: 'GlossaryEntry',
    description: "A term of the tenant's glossary and what it means in the data.",
    examples: [
      {
        term: 'revenue',
        means: {
          kind: 'expr',
          table: 'orders',
          expr: {
            kind: 'arith',
            op: '*',
            left: { kind: 'column', ref: { column: 'quantity' } },
            right: { kind: 'column', ref: { column: 'unit_price' } },
          },
        },
        tenant: 'acme',
        created_by: 'acme',
        created_at: '2026-11-25T10:00:00.000Z',
        updated_at: '2026-11-25T10:00:00.000Z',
      },
    ],
  });
export type GlossaryEntry = z.output<typeof GlossaryEntrySchema>;

export const GlossaryListSchema = z
  .object({ entries: z.array(GlossaryEntrySchema) })
  .meta({ id: 'GlossaryList', description: "The tenant's glossary, by term." });
export type GlossaryList = z.output<typeof GlossaryListSchema>;

export const GlossaryImportResultSchema = z
  .object({
    created: z.number().int().describe('Terms that were new'),
    updated: z.number().int().describe('Terms whose meaning the file replaced'),
    entries: z.array(GlossaryEntrySchema).describe('The whole glossary after the import'),
  })
  .meta({
    id: 'GlossaryImportResult',
    description: 'What an import changed; terms absent from the file are kept.',
  });
export type GlossaryImportResult = z.output<typeof GlossaryImportResultSchema>;

/** The body of `POST /v1/glossary`. */
export const GlossaryCreateBody = z.strictObject({
  term: GlossaryTerm,
  means: WordMeaning,
  created_by: z.string().trim().min(1).max(100).optional(),
});

/** The body of `PUT /v1/glossary/{term}`. */
export const GlossaryUpdateBody = z.strictObject({ means: WordMeaning });

/** The body of `POST /v1/glossary/remember`: keep a word explained in a session for every session. */
export const GlossaryRememberBody = z.strictObject({
  session_id: z.string().regex(/^[0-9a-f]{32}$/, 'a session id is 32 hex digits'),
  term: GlossaryTerm,
});

/** The entries as the linker reads them: resolutions learnt from the glossary. */
export function glossaryResolutions(entries: readonly GlossaryEntry[]): Resolution[] {
  return entries.map((e) => ({ word: e.term, means: e.means, from: 'glossary' as const }));
}

/**
 * A confirmed request of the tenant with its SQL, kept to recognise a new request close to it, and
 * the plan it was compiled from (plan mode), which a request differing only in values reuses.
 */
export const StoredExampleSchema = z.object({
  request: z.string(),
  sql: z.string(),
  target: z.string(),
  /** The confirmed plan; null when the SQL was written freely (by a model or the person). */
  plan: QueryPlan.nullable().default(null),
  confirmed_at: z.string(),
});
export type StoredExample = z.output<typeof StoredExampleSchema>;

/**
 * One of the tenant's confirmed questions closest to a new request (BM25 over lemmas), carried by
 * the turn: the `link` node reuses its plan when only values differ, and a server model drafting
 * sees it as an example of question and SQL.
 */
export const CloseExample = z.object({
  request: z.string(),
  sql: z.string(),
  /** Null when there is no plan, or the glossary changed since it was confirmed (its meanings may have). */
  plan: QueryPlan.nullable(),
  confirmed_at: z.string(),
});
export type CloseExample = z.output<typeof CloseExample>;

/** Which example an id names: a hash of its request's key, so the id is stable and says nothing. */
export const ExampleViewSchema = z
  .object({
    id: z.string().describe('Stable id of the example (used to forget it)'),
    request: z.string().describe('The question, as it was asked'),
    sql: z.string().describe('The SQL confirmed for it'),
    target: z.string(),
    reusable: z.boolean().describe('Whether a request differing only in values can reuse its plan'),
    confirmed_at: z.string(),
  })
  .meta({ id: 'Example', description: 'A confirmed question of the tenant with its SQL.' });
export type ExampleView = z.output<typeof ExampleViewSchema>;

export const ExampleListSchema = z
  .object({ examples: z.array(ExampleViewSchema) })
  .meta({ id: 'ExampleList', description: "The tenant's confirmed questions, newest first." });
export type ExampleList = z.output<typeof ExampleListSchema>;

/** The stored example a new request is close to, shown as "like your earlier question '…'". */
export const SimilarExample = z
  .object({
    request: z.string().describe('The earlier question, as it was asked'),
    sql: z.string().describe('The SQL confirmed for it'),
    confirmed_at: z.string(),
  })
  .meta({ id: 'SimilarExample', description: 'A confirmed earlier question of the tenant close to this request' });
export type SimilarExample = z.output<typeof SimilarExample>;

export const GLOSSARY_VIEW_SCHEMAS = [
  GlossaryEntrySchema,
  GlossaryListSchema,
  GlossaryImportResultSchema,
  ExampleViewSchema,
  ExampleListSchema,
] as const;
