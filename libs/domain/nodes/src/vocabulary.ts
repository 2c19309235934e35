import type { Column, Envelope, TargetKind } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import type { SqlVocabulary } from '@nl2p/llm';

/**
 * Words of each target's SQL beyond the SELECT subset every target shares
 * (`DEFAULT_SQL_KEYWORDS` in @nl2p/llm): what the dialect notes and syntax rules tell the model
 * to write. Never a DDL/DML word: the grammar built from these cannot spell one.
 */
export const DIALECT_KEYWORDS: Readonly<Record<TargetKind, readonly string[]>> = {
  // Windows are functions (tumblingwindow('ss', 10)) and struct access is `a->b`: no extra words.
  veloflux: [],
  duckdb: [
    'CROSS', 'FULL', 'EXISTS', 'ANY', 'ALL', 'SOME', 'UNION', 'INTERSECT', 'EXCEPT', 'ESCAPE',
    'QUARTER', 'DOW', 'DOY', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'TRY_CAST', 'HUGEINT',
    'SMALLINT', 'TINYINT', 'UBIGINT',
  ],
  postgres: [
    'CROSS', 'FULL', 'EXISTS', 'ANY', 'ALL', 'SOME', 'UNION', 'INTERSECT', 'EXCEPT', 'ESCAPE',
    'QUARTER', 'DOW', 'DOY', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'SMALLINT', 'AT', 'ZONE',
  ],
}; // prettier-ignore

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
    extraKeywords: DIALECT_KEYWORDS[catalog.dialect],
  };
}
