import { DuckDbTarget, targetProfile } from '@nl2p/engine';
import type { LinkSchema } from '@nl2p/linking';

/**
 * The LinkSchema the product builds for a DuckDB database, by the product's own code path: the
 * DuckDB target's `listStreams` (what `init_session` stores as the envelope's `tables`) and its
 * `loadCatalog().values` (the distinct values of low-cardinality text columns, cached with the
 * catalog), assembled as `linkSchemaFor` (libs/domain/nodes/src/plan-drafting.ts) does. A change
 * to how the target reads its catalog shows in the measure.
 */
export async function duckDbLinkSchema(file: string): Promise<LinkSchema> {
  const target = new DuckDbTarget({ path: file, readOnly: true });
  try {
    const streams = await target.listStreams();
    const catalog = await target.loadCatalog();
    return {
      tables: Object.fromEntries(streams.map((s) => [s.name, s.columns])),
      values: catalog.values ?? {},
      streaming: targetProfile('duckdb').streaming,
      comments: Object.fromEntries(streams.flatMap((s) => (s.comment ? [[s.name, s.comment]] : []))),
      keys: Object.fromEntries(
        streams.map((s) => [s.name, { primaryKey: s.primaryKey ?? [], foreignKeys: s.foreignKeys ?? [] }]),
      ),
    };
  } finally {
    await target.close();
  }
}
