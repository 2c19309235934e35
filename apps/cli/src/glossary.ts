import { readFileSync, writeFileSync } from 'node:fs';
import { describeMeaning, type WordMeaning } from '@nl2p/envelope';
import type { GlossaryFields } from '@nl2p/gateway-client';
import { CliError, type GatewayApi } from './api';
import type { Style } from './style';

// The tenant's glossary from the terminal: the REPL's /define, /glossary, /forget and the one-shot
// `nl2pipeline glossary …`. A meaning is written with the glossary file's own fields
// (`table: orders, expr: quantity * unit_price`), so what a person types and what the team keeps
// in git are one spelling, read by one reader: the gateway's.

/** What the person asked of the glossary. */
export type GlossaryAction =
  | { name: 'list' }
  | { name: 'define'; term: string; means: GlossaryFields }
  | { name: 'forget'; term: string }
  | { name: 'export'; file: string | null }
  | { name: 'import'; file: string };

const FIELD_NAMES = ['table', 'column', 'value', 'expr', 'condition'] as const;
type FieldName = (typeof FIELD_NAMES)[number];
/** A field label where a new field starts: at the start or after a space or a comma. */
const FIELD_LABEL = new RegExp(`(?:^|[\\s,])(${FIELD_NAMES.join('|')})\\s*:`, 'g');

export const DEFINE_USAGE =
  'usage: /define <term> = table: <table>[, column: <column>[, value: <value>] | , expr: <a * b> | , condition: <column > 30>]';

/**
 * `revenue = table: orders, expr: quantity * unit_price` as a term and its fields; a string saying
 * what is wrong otherwise. The text after a field's label is its value up to the next label, so an
 * expression or a condition may hold commas (`country in ('FR', 'DE')`).
 */
export function parseDefinition(text: string): { term: string; means: GlossaryFields } | string {
  const eq = text.indexOf('=');
  const term = eq < 0 ? '' : text.slice(0, eq).trim();
  if (!term) return DEFINE_USAGE;
  const rest = text.slice(eq + 1);
  const labels = [...rest.matchAll(FIELD_LABEL)];
  if (!labels.length || rest.slice(0, labels[0].index).trim()) {
    return `say what '${term}' means with the glossary file's fields (${FIELD_NAMES.join(', ')}): ${DEFINE_USAGE}`;
  }
  const fields: Partial<Record<FieldName, string>> = {};
  labels.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = labels[i + 1]?.index ?? rest.length;
    fields[m[1] as FieldName] = rest.slice(start, end).trim().replace(/,$/, '').trim();
  });
  const empty = FIELD_NAMES.find((f) => fields[f] === '');
  if (empty) return `'${empty}' needs a value: ${DEFINE_USAGE}`;
  if (!fields.table) return `a meaning names its table: ${DEFINE_USAGE}`;
  return { term, means: { ...fields, table: fields.table } };
}

/** How a meaning is shown in a listing: the table, then what in it. */
function meaningText(m: WordMeaning): string {
  return m.kind === 'table' ? `the table ${m.table}` : `${m.table}: ${describeMeaning(m)}`;
}

/** The glossary as a table: term, meaning, who taught it and when. */
export function renderGlossary(
  entries: readonly { term: string; means: WordMeaning; created_by: string; updated_at: string }[],
  s: Style,
): string {
  if (!entries.length) return s.dim('the glossary is empty: /define <term> = table: …, or /glossary import <file>');
  const width = Math.max(...entries.map((e) => e.term.length));
  return entries
    .map(
      (e) => `${s.bold(e.term.padEnd(width))}  ${meaningText(e.means)}  ${s.dim(`(${e.created_by}, ${e.updated_at})`)}`,
    )
    .join('\n');
}

/** `export [file]`, `import <file>` after `/glossary` (or `nl2pipeline glossary`); null: not one of them. */
export function parseGlossaryArgs(args: string[]): GlossaryAction | string {
  const [verb, ...rest] = args;
  switch (verb?.toLowerCase()) {
    case undefined:
    case 'list':
      return rest.length ? 'usage: /glossary [list]' : { name: 'list' };
    case 'export':
      return rest.length > 1 ? 'usage: /glossary export [file]' : { name: 'export', file: rest[0] ?? null };
    case 'import':
      return rest.length === 1 ? { name: 'import', file: rest[0] } : 'usage: /glossary import <file>';
    default:
      return 'usage: /glossary [list | export [file] | import <file>]';
  }
}

/** What an action did, for the person: `out` is the result (stdout), `note` a status line (stderr). */
export interface GlossaryOutcome {
  out?: string;
  note?: string;
}

/** Runs one glossary action through the gateway; a file that cannot be read or written is a CliError. */
export async function runGlossaryAction(api: GatewayApi, a: GlossaryAction, s: Style): Promise<GlossaryOutcome> {
  switch (a.name) {
    case 'list':
      return { out: renderGlossary(await api.glossary(), s) };
    case 'define': {
      const result = await api.defineTerm(a.term, a.means);
      const entry = result.entries.find((e) => e.term.toLowerCase() === a.term.toLowerCase());
      const meaning = entry ? ` as ${meaningText(entry.means)}` : '';
      return { note: `${result.created ? 'defined' : 'redefined'} '${a.term}'${meaning}` };
    }
    case 'forget':
      await api.forgetTerm(a.term);
      return { note: `forgot '${a.term}'` };
    case 'export': {
      const file = await api.exportGlossary();
      if (!a.file) return { out: file.trimEnd() };
      writeFile(a.file, file);
      return { note: `wrote the glossary to ${a.file}` };
    }
    case 'import': {
      const result = await api.importGlossary(readFile(a.file));
      return {
        note: `imported ${a.file}: ${result.created} new, ${result.updated} changed, ${result.entries.length} in all`,
      };
    }
  }
}

function readFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

function writeFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new CliError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
