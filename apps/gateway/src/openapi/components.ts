import { z } from 'zod';
import { API_VIEW_SCHEMAS, Column, SimilarExample } from '@nl2p/envelope';
import { Condition, MeasureExpr, QueryPlan, ValueExpr } from '@nl2p/query-plan';

type Schema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** The component name a response schema is registered under (its zod `meta` id). */
export function componentName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('a documented response schema needs a meta id');
  return id;
}

/** A `$ref` to the component of a response schema, for `@ApiResponse({ schema })`. */
export function ref(schema: z.ZodType): { $ref: string } {
  return { $ref: `${COMPONENTS}${componentName(schema)}` };
}

/** Drops what JSON Schema needs and an OpenAPI component must not carry (`$schema`, `$id`). */
function component(schema: Schema): Schema {
  const rest = { ...schema };
  delete rest.$schema;
  delete rest.$id;
  return rest;
}

/**
 * The response schemas as OpenAPI 3.1 components, generated from the same zod schemas that type
 * the gateway's views. Recursive parts (plans nest plans, columns nest columns) get a component
 * each, so every `$ref` points into `components/schemas`.
 */
export function apiComponents(): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const schema of API_VIEW_SCHEMAS) registry.add(schema, { id: componentName(schema) });
  registry.add(QueryPlan, { id: 'QueryPlan' });
  registry.add(Condition, { id: 'PlanCondition' });
  registry.add(ValueExpr, { id: 'PlanValue' });
  registry.add(MeasureExpr, { id: 'PlanMeasure' });
  registry.add(Column, { id: 'Column' });
  registry.add(SimilarExample, { id: 'SimilarExample' });
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `${COMPONENTS}${id}`,
    // Plans hold defaults (e.g. `version`): document what the server sends, not what it accepts.
    io: 'output',
  }) as { schemas: Record<string, Schema> };
  if ('__shared' in out.schemas) throw new Error('a recursive schema has no component id; register it above');
  return Object.fromEntries(Object.entries(out.schemas).map(([name, s]) => [name, component(s)]));
}
