import { splitQualified } from '@nl2p/execution-dag';
import type { LinkSchema } from '@nl2p/linking';

type Keys = NonNullable<LinkSchema['keys']>[string];

/**
 * What the linker reads a request over in a session over all sources. The linker ties a
 * request's words to tables by their names, and `shop.orders` is not the word 'orders' to it:
 * over qualified names it read cross-source requests worse than the same requests over one
 * database (tables "fitting equally", `more than 20 orders` read as `order_id > 20`). So each
 * table is shown under its own name when one source holds it. A name several sources hold is
 * shown once, under that name (the first holder's columns and keys, every holder's values): a
 * reading that uses it names it bare, and qualifying the plan then asks which source is meant,
 * as a plan naming it would; never a guess. `qualifyPlan` turns the bare names back into
 * `source.table` before the plan is checked and split.
 */
export function sourcesLinkView(schema: LinkSchema): LinkSchema {
  const bare = bareNames(Object.keys(schema.tables));
  const rename = <T>(byTable: Record<string, T> | undefined, merge: (a: T, b: T) => T = (a) => a) => {
    const out: Record<string, T> = {};
    for (const [table, value] of Object.entries(byTable ?? {})) {
      const name = bare.get(table) ?? table;
      out[name] = name in out ? merge(out[name], value) : value;
    }
    return out;
  };
  const keys = (k: Keys): Keys => ({
    ...k,
    foreignKeys: k.foreignKeys?.map((fk) => ({
      ...fk,
      references: { ...fk.references, table: bare.get(fk.references.table) ?? fk.references.table },
    })),
  });
  return {
    ...schema,
    tables: rename(schema.tables),
    values: rename(schema.values, mergeValues),
    comments: rename(schema.comments),
    keys: rename(Object.fromEntries(Object.entries(schema.keys ?? {}).map(([t, k]) => [t, keys(k)]))),
  };
}

/** `source.table` → `table` for every qualified name (a name without a source stays as it is). */
function bareNames(tables: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const table of tables) {
    const split = splitQualified(table);
    if (split) out.set(table, split.table);
  }
  return out;
}

/** Every holder's values of a shared table, column by column (sorted, without repeats). */
function mergeValues(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = { ...a };
  for (const [column, values] of Object.entries(b))
    out[column] = [...new Set([...(out[column] ?? []), ...values])].sort();
  return out;
}
