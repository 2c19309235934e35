import type { Column, Envelope } from '@nl2p/envelope';
import { targetProfile, type Catalog } from '@nl2p/engine';
import type { SqlVocabulary } from '@nl2p/llm';

/** Every column name of a schema, nested struct fields and list elements' fields included. */
export function columnNames(columns: readonly Column[]): string[] {
  const names: string[] = [];
  const visit = (c: Column) => {
    names.push(c.name);
    c.fields?.forEach(visit);
    c.element?.fields?.forEach(visit);
  };
  columns.forEach(visit);
  return [...new Set(names)];
}

/**
 * The names SQL drafted for this envelope may use, from what the session was grounded in: the
 * engine's streams and the columns of the active stream and of the tables it may join, the
 * catalog's functions (with aliases) and the dialect's words. Grammars built from it (local
 * provider) cannot emit any other name.
 *
 * `activeStreamOnly` (with compact prompts, which show only the active stream): just that stream
 * and its columns, so a small model cannot wander onto a table its prompt never described.
 */
export function sqlVocabularyFor(
  e: Envelope,
  catalog: Catalog,
  options: { activeStreamOnly?: boolean } = {},
): SqlVocabulary {
  const active = e.stream_schema;
  const only = options.activeStreamOnly && active !== null;
  const others = only ? [] : Object.entries(e.tables ?? {}).filter(([name]) => name !== active?.name);
  return {
    streams: only ? [active.name] : e.streams,
    columns: [...new Set([...columnNames(active?.columns ?? []), ...others.flatMap(([, cols]) => columnNames(cols))])],
    functions: [...new Set(catalog.functions.flatMap((f) => [f.name, ...f.aliases]))],
    extraKeywords: targetProfile(catalog.dialect).grammarKeywords,
  };
}
