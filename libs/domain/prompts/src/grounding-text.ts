import type { Column, StreamSchema } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';

/** `name type` lines, nested struct fields indented, list elements shown as `list<type>`. */
export function describeColumns(columns: readonly Column[], indent = ''): string {
  return columns
    .map((c) => {
      const type = c.element ? `list<${c.element.data_type}>` : c.data_type;
      const head = `${indent}- ${c.name} ${type}`;
      return c.fields?.length ? `${head}\n${describeColumns(c.fields, `${indent}  `)}` : head;
    })
    .join('\n');
}

export function describeSchema(schema: StreamSchema): string {
  return `Stream \`${schema.name}\` columns (exact, case-sensitive):\n${describeColumns(schema.columns)}`;
}

/**
 * The catalog as compact text: every function once, grouped by kind, with signatures; the
 * constructs the engine does not support; the dialect rules. Sending the raw catalogs would cost
 * many times the tokens for no better grounding.
 */
export function describeCatalog(catalog: Catalog): string {
  const byKind = new Map<string, string[]>();
  for (const f of catalog.functions) {
    const list = byKind.get(f.kind) ?? [];
    const aliases = f.aliases.length ? ` (= ${f.aliases.join(', ')})` : '';
    list.push(`${f.signature}${aliases}`);
    byKind.set(f.kind, list);
  }
  const functions = [...byKind.entries()].map(([kind, sigs]) => `${kind}: ${sigs.join('; ')}`).join('\n');
  const unsupported = catalog.syntax
    .filter((r) => r.status !== 'supported')
    .map((r) => `- ${r.title} (${r.status})${r.notes.length ? `: ${r.notes.join(' ')}` : ''}`)
    .join('\n');
  const rules = catalog.dialectNotes.map((n) => `- ${n}`).join('\n');
  return [
    `SQL dialect: ${catalog.dialect}.`,
    `Functions (only these exist):\n${functions}`,
    unsupported ? `Constructs with limits:\n${unsupported}` : '',
    rules ? `Dialect rules:\n${rules}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
