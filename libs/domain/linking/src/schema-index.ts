import type { Column } from '@nl2p/envelope';
import { senses, synset } from './lexical/wordnet';
import { ABBREVIATIONS, GENERIC_PARTS, TEMPORAL_PARTS, UNIT_QUANTITIES } from './lexicon';
import { identifierWords, singular, valueWords } from './text';
import type { LinkSchema } from './types';

/** One way to read an identifier as words; expanded abbreviations read slightly weaker. */
export interface Reading {
  words: string[];
  factor: number;
  /** A synonym of the name rather than its own words (`power plant` for power_stations). */
  meaning?: true;
}

export interface ColumnInfo {
  table: string;
  column: string;
  /** Struct fields below `column`, outermost first. */
  path: string[];
  /** `location->lat`, as plan slots label struct fields. */
  label: string;
  type: string;
  numeric: boolean;
  temporal: boolean;
  text: boolean;
  boolean: boolean;
  readings: Reading[];
}

export interface TableInfo {
  name: string;
  readings: Reading[];
  columns: ColumnInfo[];
}

export interface ValueInfo {
  table: string;
  column: string;
  value: string;
  words: string[];
}

export interface SchemaIndex {
  tables: TableInfo[];
  table: (name: string) => TableInfo | undefined;
  values: ValueInfo[];
  streaming: boolean;
}

const NUMERIC =
  /^(tinyint|smallint|integer|int|bigint|hugeint|ubigint|uinteger|usmallint|utinyint|double|float|real|decimal|numeric|number|int\d+|uint\d+|float\d+|double precision|serial|bigserial|money)/i;
const TEMPORAL = /^(timestamp|date|datetime|timestamptz)/i;
const TEXT = /^(varchar|text|string|character varying|char|character|bpchar|enum|uuid)/i;
const BOOLEAN = /^(bool|boolean)$/i;

export function isNumericType(t: string): boolean {
  return NUMERIC.test(t.trim());
}
export function isTemporalType(t: string): boolean {
  return TEMPORAL.test(t.trim());
}

/** Every way an identifier may be said: its words, with abbreviations spelled out, units named, synonyms of a compound. */
export function readingsOf(name: string): Reading[] {
  const words = identifierWords(name);
  let out: Reading[] = [{ words: [], factor: 1 }];
  for (const w of words) {
    const alternatives: { words: string[]; factor: number }[] = [{ words: [w], factor: 1 }];
    for (const expansion of ABBREVIATIONS[w] ?? []) alternatives.push({ words: expansion, factor: 0.92 });
    const quantity = UNIT_QUANTITIES[w];
    if (quantity && w === words.at(-1) && words.length > 1) alternatives.push({ words: [quantity], factor: 0.9 });
    const next: Reading[] = [];
    for (const r of out) {
      for (const a of alternatives) next.push({ words: [...r.words, ...a.words], factor: r.factor * a.factor });
    }
    out = next.slice(0, 12);
  }
  // A name glued without separators (`unitprice`) is also said as itself.
  if (words.length > 1) out.push({ words: [words.join('')], factor: 1 });
  out.push(...compoundSynonyms(words));
  return out.filter((r) => r.words.length > 0);
}

/**
 * A compound WordNet knows as one noun (`power_station`, `zip_code`) is also said by its
 * synonyms (`power plant`, `powerhouse`; `postal code`), a little weaker than its own words.
 */
function compoundSynonyms(words: readonly string[]): Reading[] {
  if (words.length < 2 || words.length > 3 || words.some((w) => /\d/.test(w))) return [];
  const compound = [...words.slice(0, -1), singular(words.at(-1) ?? '')].join('_');
  const out: Reading[] = [];
  for (const offset of senses(compound, 'n').slice(0, 2)) {
    for (const w of synset('n', offset).words) {
      if (w !== compound) out.push({ words: w.split('_'), factor: 0.85, meaning: true });
    }
  }
  return out;
}

/**
 * The words every name of a group begins with, when there are at least three names and each says
 * more than them: a namespace (`sb` in `sbCustomer`, `sbTransaction`) or the table's own noun
 * repeated on its columns (`cust` in `sbCustId`, `sbCustName`, `sbCustEmail`).
 */
export function sharedPrefix(names: readonly string[]): string[] {
  if (names.length < 3) return [];
  const words = names.map(identifierWords);
  const first = words[0] ?? [];
  let n = 0;
  while (n < first.length && words.every((w) => w.length > n + 1 && w[n] === first[n])) n++;
  return first.slice(0, n);
}

/** The readings, and each again without the shared prefix (said in full is as good as said short). */
function withoutPrefix(readings: Reading[], prefix: readonly string[]): Reading[] {
  if (!prefix.length) return readings;
  const extra = readings
    .filter((r) => prefix.every((w, k) => r.words[k] === w) && r.words.length > prefix.length)
    .map((r) => ({ words: r.words.slice(prefix.length), factor: r.factor }));
  return [...readings, ...extra];
}

function columnInfos(table: string, columns: readonly Column[], parent: ColumnInfo | null): ColumnInfo[] {
  return columns.flatMap((c) => {
    const own = readingsOf(c.name);
    const info: ColumnInfo = {
      table,
      column: parent ? parent.column : c.name,
      path: parent ? [...parent.path, c.name] : [],
      label: parent ? `${parent.label}->${c.name}` : c.name,
      type: c.data_type,
      numeric: isNumericType(c.data_type),
      temporal: isTemporalType(c.data_type),
      text: TEXT.test(c.data_type.trim()),
      boolean: BOOLEAN.test(c.data_type.trim()),
      // A struct field is also said with its parent's words in front (`location lat`).
      readings: parent
        ? [
            ...own,
            ...parent.readings.flatMap((p) =>
              own.map((o) => ({ words: [...p.words, ...o.words], factor: p.factor * o.factor })),
            ),
          ]
        : own,
    };
    return c.fields?.length ? [info, ...columnInfos(table, c.fields, info)] : [info];
  });
}

export function buildIndex(schema: LinkSchema): SchemaIndex {
  const tableNamespace = sharedPrefix(Object.keys(schema.tables));
  const tables: TableInfo[] = Object.entries(schema.tables).map(([name, columns]) => {
    const namespace = sharedPrefix(columns.map((c) => c.name));
    return {
      name,
      readings: withoutPrefix(readingsOf(name), tableNamespace),
      columns: columnInfos(name, columns, null).map((c) =>
        c.path.length ? c : { ...c, readings: withoutPrefix(withoutPrefix(c.readings, namespace), tableNamespace) },
      ),
    };
  });
  const byName = new Map(tables.map((t) => [t.name, t]));
  const values: ValueInfo[] = [];
  for (const [table, columns] of Object.entries(schema.values ?? {})) {
    if (!byName.has(table)) continue;
    for (const [column, list] of Object.entries(columns)) {
      for (const value of list) {
        const words = valueWords(value);
        if (words.length) values.push({ table, column, value, words });
      }
    }
  }
  return { tables, table: (n) => byName.get(n), values, streaming: schema.streaming };
}

/** Words of a reading that say something (not `id`, `at`, `ts`). */
export function specificWords(r: Reading): string[] {
  return r.words.filter((w) => !GENERIC_PARTS.has(w));
}

/** A column whose name marks a point in time although its type does not (`ts int64` on a stream). */
export function looksTemporal(c: ColumnInfo): boolean {
  if (c.temporal) return true;
  const last = c.readings[0]?.words.at(-1);
  return last !== undefined && TEMPORAL_PARTS.has(last) && (c.numeric || c.text);
}

/**
 * The column that identifies a table's rows: `id`, `<table>_id`, or (streams, tables without
 * one) the column whose expanded name is `<table> id` (`vin` for `vehicle`).
 */
export function ownKey(t: TableInfo, singularOf: (w: string) => string): ColumnInfo | undefined {
  const tableWords = (t.readings[0]?.words ?? []).map(singularOf);
  const head = tableWords.at(-1);
  return t.columns.find((c) => {
    if (c.path.length) return false;
    if (c.column.toLowerCase() === 'id') return true;
    return c.readings.some((r) => {
      const w = r.words.map(singularOf);
      return (
        w.length >= 2 &&
        GENERIC_PARTS.has(w[w.length - 1] ?? '') &&
        head !== undefined &&
        w.includes(head) &&
        w.length <= tableWords.length + 2
      );
    });
  });
}
