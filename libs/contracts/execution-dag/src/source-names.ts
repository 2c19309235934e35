/**
 * Source-qualified table names: `source.table`. The source name is one identifier (the config
 * refuses anything else), so the first dot separates it from the table's own name.
 */
export function qualify(source: string, table: string): string {
  return `${source}.${table}`;
}

export function splitQualified(name: string): { source: string; table: string } | null {
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  return { source: name.slice(0, dot), table: name.slice(dot + 1) };
}

/** The source of a qualified name; throws for a name without one (the decomposer needs it). */
export function sourceOf(name: string): string {
  const split = splitQualified(name);
  if (!split) throw new Error(`table ${name} is not source-qualified (source.table)`);
  return split.source;
}

export function localName(name: string): string {
  return splitQualified(name)?.table ?? name;
}
