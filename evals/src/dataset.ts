import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const DATASETS_DIR = path.resolve(__dirname, '../datasets');

export const SQL_CATEGORIES = [
  'filter',
  'aggregate',
  'group_by',
  'time_bucket',
  'top_n',
  'join',
  'clarify_ambiguous',
  'clarify_impossible',
] as const;

/** One request over the DuckDB demo dataset. */
export const SqlEvalItem = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    category: z.enum(SQL_CATEGORIES),
    /** The table to name when the product asks which one to use (the request's main table). */
    table: z.string(),
    /** `sql`: scored against `gold_sql`; `clarify`: the product must ask the person instead. */
    expect: z.enum(['sql', 'clarify']),
    /** Compare rows in order (the request asks for an order); otherwise as a multiset. */
    ordered: z.boolean(),
    request: z.string().min(1),
    gold_sql: z.string().nullable(),
  })
  .refine((i) => (i.expect === 'sql') === (i.gold_sql !== null), 'gold_sql is required exactly when expect is sql');
export type SqlEvalItem = z.infer<typeof SqlEvalItem>;

export const SqlEvalSet = z.object({
  name: z.string(),
  description: z.string(),
  demo_dataset_version: z.number().int(),
  items: z.array(SqlEvalItem).min(1),
});
export type SqlEvalSet = z.infer<typeof SqlEvalSet>;

/**
 * One request over the veloFlux example streams, judged by the engine: the logical plan of the
 * accepted SQL must be the engine's plan of the reference SQL (evals/src/plan-shape.ts).
 */
export const VelofluxEvalItem = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    stream: z.string(),
    expect: z.enum(['sql', 'clarify']),
    request: z.string().min(1),
    /** The answer, validated and explained by the same engine the product is run against. */
    reference_sql: z.string().nullable().default(null),
  })
  .strict()
  .refine(
    (i) => (i.expect === 'sql') === (i.reference_sql !== null),
    'reference_sql is required exactly when expect is sql',
  );
export type VelofluxEvalItem = z.infer<typeof VelofluxEvalItem>;

export const VelofluxEvalSet = z.object({
  name: z.string(),
  description: z.string(),
  items: z.array(VelofluxEvalItem).min(1),
});
export type VelofluxEvalSet = z.infer<typeof VelofluxEvalSet>;

export function loadSqlSet(file = path.join(DATASETS_DIR, 'duckdb-demo.json')): SqlEvalSet {
  return SqlEvalSet.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export function loadVelofluxSet(file = path.join(DATASETS_DIR, 'veloflux-examples.json')): VelofluxEvalSet {
  return VelofluxEvalSet.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Items whose id is listed (in the listed order), or all of them. */
export function selectItems<T extends { id: string }>(items: readonly T[], ids: readonly string[] | undefined): T[] {
  if (!ids?.length) return [...items];
  const byId = new Map(items.map((i) => [i.id, i]));
  return ids.map((id) => {
    const item = byId.get(id);
    if (!item) throw new Error(`no eval item with id ${id}`);
    return item;
  });
}
