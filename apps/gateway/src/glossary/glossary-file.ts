import { isMap, isScalar, LineCounter, parseDocument, stringify, type Node } from 'yaml';
import { conditionOf, conditionText, GlossaryTerm, type GlossaryEntry, type WordMeaning } from '@nl2p/envelope';
import { formatExpr, parseCondition, parseExpr } from './meaning-text';

// The glossary as a YAML file a team keeps in git beside its pipelines:
//
//   terms:
//     revenue:      { table: orders, expr: quantity * unit_price }
//     hot:          { table: readings, condition: temperature > 30 }
//     active:       { table: orders, condition: "status != 'closed'" }
//     EU:           { table: customers, condition: "country in ('FR', 'DE')" }
//     shipped ones: { table: orders, column: status, value: shipped }
//     temp:         { table: readings, column: temperature }
//     clients:      { table: customers }
//
// Only meanings are written: who taught a term and when stay in the product (git keeps the file's).

/** A file that cannot be read, with the line (1-based) of what is wrong. */
export class GlossaryFileError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

const FIELDS = new Set(['table', 'column', 'value', 'expr', 'condition']);

/** The terms of a glossary file, or a {@link GlossaryFileError} naming the first bad line. */
export function readGlossaryFile(text: string): { term: string; means: WordMeaning }[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const first = doc.errors[0];
  if (first) throw new GlossaryFileError(first.linePos?.[0].line ?? 1, first.message.split('\n')[0] ?? 'not YAML');
  const root = doc.contents;
  if (!isMap(root)) throw new GlossaryFileError(lineOf(root), 'the file is a mapping with one key, `terms`');
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'terms') throw new GlossaryFileError(lineOf(pair.key), `unknown key '${key}' (only \`terms\`)`);
  }
  const terms = root.get('terms', true) as Node | undefined;
  if (terms === undefined) return [];
  if (!isMap(terms)) throw new GlossaryFileError(lineOf(terms), '`terms` maps each term to its meaning');
  return terms.items.map((pair) => {
    const keyNode = pair.key as Node;
    const parsedTerm = GlossaryTerm.safeParse(isScalar(keyNode) ? String(keyNode.value) : '');
    if (!parsedTerm.success)
      throw new GlossaryFileError(lineOf(keyNode), 'a term is 1 to 100 characters, with a letter or digit');
    return { term: parsedTerm.data, means: readMeaning(pair.value as Node, lineOf(keyNode), lineOf) };
  });
}

function readMeaning(node: Node | null, termLine: number, lineOf: (n: Node | null | undefined) => number): WordMeaning {
  if (!isMap(node))
    throw new GlossaryFileError(termLine, 'a meaning is a mapping: table, and column, value, expr or condition');
  const fields = new Map<string, { text: string; line: number }>();
  for (const pair of node.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const value = pair.value as Node | null;
    if (!FIELDS.has(key)) {
      throw new GlossaryFileError(lineOf(keyNode), `unknown field '${key}' (table, column, value, expr, condition)`);
    }
    const scalar = isScalar(value) ? value.value : null;
    if (typeof scalar !== 'string' && typeof scalar !== 'number' && typeof scalar !== 'boolean') {
      throw new GlossaryFileError(lineOf(keyNode), `'${key}' needs a value`);
    }
    fields.set(key, { text: String(scalar).trim(), line: lineOf(keyNode) });
  }
  const table = fields.get('table')?.text;
  if (!table) throw new GlossaryFileError(termLine, 'a meaning names its `table`');
  const { column, value, expr, condition } = Object.fromEntries(fields) as Record<
    string,
    { text: string; line: number } | undefined
  >;
  const given = [expr && 'expr', condition && 'condition', (column || value) && 'column'].filter(Boolean);
  if (given.length > 1)
    throw new GlossaryFileError(
      termLine,
      `give one of column (with value), expr or condition, not ${given.join(' and ')}`,
    );
  const parsed = <T>(field: { line: number }, read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw new GlossaryFileError(field.line, err instanceof Error ? err.message : String(err));
    }
  };
  if (expr) return { kind: 'expr', table, expr: parsed(expr, () => parseExpr(expr.text)) };
  if (condition) return { kind: 'condition', table, where: parsed(condition, () => parseCondition(condition.text)) };
  if (value && !column) throw new GlossaryFileError(value.line, '`value` needs the `column` that holds it');
  if (column && value) return { kind: 'value', table, column: column.text, value: value.text };
  if (column) return { kind: 'column', table, column: column.text };
  return { kind: 'table', table };
}

/** The glossary as the file {@link readGlossaryFile} reads back to the same meanings. */
export function writeGlossaryFile(entries: readonly GlossaryEntry[]): string {
  const terms: Record<string, Record<string, string>> = {};
  for (const e of entries) terms[e.term] = meaningFields(e.means);
  return stringify({ terms }, { lineWidth: 0 });
}

function meaningFields(m: WordMeaning): Record<string, string> {
  switch (m.kind) {
    case 'table':
      return { table: m.table };
    case 'column':
      return { table: m.table, column: m.column };
    case 'value':
      return { table: m.table, column: m.column, value: m.value };
    case 'expr':
      return { table: m.table, expr: formatExpr(m.expr) };
    case 'condition':
      // A glossary condition is always one the spelling can say (the file and the REST body are checked).
      return { table: m.table, condition: conditionText(conditionOf(m)) ?? '' };
  }
}
