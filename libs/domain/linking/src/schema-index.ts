import type { Column } from '@nl2p/envelope';
import { isWord, segment } from './lexical/segment';
import { senses, synset } from './lexical/wordnet';
import {
  ABBREVIATIONS,
  BOOLEAN_PREFIXES,
  FUNCTION_WORDS,
  GENERIC_PARTS,
  TEMPORAL_PARTS,
  UNIT_QUANTITIES,
} from './lexicon';
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
  /** A text column that holds only yes/no spellings (`Y`/`N`, `yes`/`no`, `T`/`F`): a yes/no column kept as text. */
  yesNo?: { yes: string; no: string | null };
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
  /**
   * A value of a column of names (more than {@link MAX_CATEGORY_VALUES} values: cities, people,
   * businesses) rather than of categories: linked only when the request says it as a name.
   */
  name: boolean;
}

/** Beyond this many distinct values a text column holds names rather than categories. */
export const MAX_CATEGORY_VALUES = 50;

export interface SchemaIndex {
  tables: TableInfo[];
  table: (name: string) => TableInfo | undefined;
  values: ValueInfo[];
  /** The values that may be said by `words`: keyed by {@link valueKey}. */
  valuesSaidAs: (words: readonly string[]) => readonly ValueInfo[];
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
    // A part glued without separators (`paperid`, `numcitedby`) is also the words it is made of.
    const parts = segment(w);
    if (parts) {
      alternatives.push({ words: parts, factor: 0.95 });
      const spelledOut = parts.flatMap((p) => ABBREVIATIONS[p]?.[0] ?? [p]);
      if (spelledOut.join(' ') !== parts.join(' ')) alternatives.push({ words: spelledOut, factor: 0.9 });
    }
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

/**
 * A yes/no column is also said without its verb: `has_auto_gearbox` is what an `auto gearbox`
 * car has, `is_open` what an `open` business is.
 */
export function withoutBooleanPrefix(readings: Reading[]): Reading[] {
  const extra = readings
    .filter((r) => r.words.length > 1 && BOOLEAN_PREFIXES.has(r.words[0] ?? ''))
    .flatMap((r) => {
      const rest = r.words.slice(1);
      // `has_auto_gearbox`: what has one is `auto` (an automatic car), its modifier said alone.
      const modifier =
        rest.length === 2 && r.words[0] !== 'is' ? [{ words: [rest[0] ?? ''], factor: r.factor * 0.85 }] : [];
      return [{ words: rest, factor: r.factor * 0.95 }, ...modifier];
    });
  return [...readings, ...extra];
}

/**
 * A key named by the initials of a table and `id` (`did` in `domain`, `aid` → `author`, `oid` →
 * `organization`) is also said as that table's id; a column of one table can name another's.
 */
export function initialKeyReadings(column: string, tableNames: readonly string[]): Reading[] {
  const m = /^([a-z]{1,3})id$/.exec(column.toLowerCase());
  if (!m) return [];
  const initials = m[1] ?? '';
  const out: Reading[] = [];
  for (const table of tableNames) {
    const words = identifierWords(table).map((w) => singular(w));
    const said = words.map((w) => w[0]).join('');
    if (said === initials || (words.length === 1 && (words[0] ?? '').startsWith(initials)))
      out.push({ words: [...words, 'id'], factor: 0.9 });
  }
  return out;
}

/**
 * Letters that begin a name in many schemas for a word said in full (`fname`, `lname`, `minit`):
 * the parts of a person's name, the one convention general enough to list.
 */
const NAME_PART_INITIALS: Readonly<Record<string, string>> = { f: 'first', l: 'last', m: 'middle' };

/**
 * A name made of one letter and a word (`DName` in `department`, `Pname` in `project`, `Dno` in
 * `employee`, `Fname`): the letter stands for a word. When it is the initial of the column's own
 * table, the column is that table's thing (`department name`, and `name` said alone, a little
 * weaker); of another table, that table's (`Dno` → `department no`); else a part of a person's
 * name (`first name`). A name that is a word itself (`plate`, `scar`) is left alone.
 */
export function initialPrefixReadings(column: string, table: string, tableNames: readonly string[]): Reading[] {
  const m = /^([a-z])([a-z]{2,})$/.exec(column.toLowerCase());
  if (!m || identifierWords(column).length !== 1 || isWord(m[0])) return [];
  const [, letter = '', rest = ''] = m;
  if (rest === 'id' || !isWord(rest)) return [];
  const wordsOf = (t: string) => identifierWords(t).map((w) => singular(w));
  const out: Reading[] = [];
  const own = wordsOf(table);
  if (own[0]?.startsWith(letter)) out.push({ words: [...own, rest], factor: 0.9 }, { words: [rest], factor: 0.85 });
  for (const other of tableNames) {
    const words = wordsOf(other);
    if (other !== table && words.length === 1 && words[0]?.startsWith(letter))
      out.push({ words: [...words, rest], factor: 0.8 });
  }
  const part = NAME_PART_INITIALS[letter];
  if (!out.length && part && rest === 'name') out.push({ words: [part, rest], factor: 0.9 });
  return out;
}

/** Most words of a comment read as a name. */
const COMMENT_WORDS = 4;

/**
 * What a database comment says a table or column is (`COMMENT ON COLUMN cars.atm IS 'automatic
 * gearbox'`), read like another name for it: its content words, a little weaker than the name's
 * own, and shown as a reading when a request meets it (`"automatic" is read as atm`).
 */
export function commentReadings(comment: string | undefined): Reading[] {
  if (!comment) return [];
  // A comment is often a sentence (`Manufacturer of the car`): its opening noun phrase, up to the
  // first function word after it, is what the column is; the rest is about something else.
  const words: string[] = [];
  for (const w of valueWords(comment)) {
    if (FUNCTION_WORDS.has(w) || !/\p{L}/u.test(w)) {
      if (words.length) break;
      continue;
    }
    words.push(w);
  }
  const phrase = words.slice(0, COMMENT_WORDS);
  return phrase.length ? [{ words: phrase, factor: 0.85, meaning: true }] : [];
}

function columnInfos(
  table: string,
  columns: readonly Column[],
  parent: ColumnInfo | null,
  tableNames: readonly string[],
): ColumnInfo[] {
  return columns.flatMap((c) => {
    const boolean = BOOLEAN.test(c.data_type.trim());
    const named = readingsOf(c.name);
    const own = [
      ...(boolean ? withoutBooleanPrefix(named) : named),
      ...initialKeyReadings(c.name, tableNames),
      ...(parent ? [] : initialPrefixReadings(c.name, table, tableNames)),
      ...commentReadings(c.comment),
    ];
    const info: ColumnInfo = {
      table,
      column: parent ? parent.column : c.name,
      path: parent ? [...parent.path, c.name] : [],
      label: parent ? `${parent.label}->${c.name}` : c.name,
      type: c.data_type,
      numeric: isNumericType(c.data_type),
      temporal: isTemporalType(c.data_type),
      text: TEXT.test(c.data_type.trim()),
      boolean,
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
    return c.fields?.length ? [info, ...columnInfos(table, c.fields, info, tableNames)] : [info];
  });
}

/**
 * Indexes already built, per schema object: one request's link, proposal and plan check read the
 * same schema, and each used to index it afresh. A schema is not changed once read (a session's
 * resolutions make a new one), so the object is the key; it goes with the schema.
 */
const indexes = new WeakMap<LinkSchema, SchemaIndex>();

/** The schema's index: its tables, columns and values as the words that may say them. */
export function buildIndex(schema: LinkSchema): SchemaIndex {
  let index = indexes.get(schema);
  if (!index) {
    index = indexSchema(schema);
    indexes.set(schema, index);
  }
  return index;
}

function indexSchema(schema: LinkSchema): SchemaIndex {
  const tableNamespace = sharedPrefix(Object.keys(schema.tables));
  const tables: TableInfo[] = Object.entries(schema.tables).map(([name, columns]) => {
    const namespace = sharedPrefix(columns.map((c) => c.name));
    return {
      name,
      readings: [...withoutPrefix(readingsOf(name), tableNamespace), ...commentReadings(schema.comments?.[name])],
      columns: columnInfos(name, columns, null, Object.keys(schema.tables)).map((c) =>
        c.path.length ? c : { ...c, readings: withoutPrefix(withoutPrefix(c.readings, namespace), tableNamespace) },
      ),
    };
  });
  const byName = new Map(tables.map((t) => [t.name, t]));
  markYesNoColumns(schema, byName);
  const values = valueInfos(schema, byName);
  const byKey = new Map<string, ValueInfo[]>();
  for (const v of values) {
    const key = valueKey(v.words);
    const list = byKey.get(key);
    if (list) list.push(v);
    else byKey.set(key, [v]);
  }
  const valuesSaidAs = (words: readonly string[]) => byKey.get(valueKey(words)) ?? [];
  return { tables, table: (n) => byName.get(n), values, valuesSaidAs, streaming: schema.streaming };
}

const YES_NO_PAIRS: readonly (readonly [string, string])[] = [
  ['y', 'n'],
  ['yes', 'no'],
  ['t', 'f'],
  ['true', 'false'],
];

/** Text columns whose values are only a yes and a no (`OnScholarship`: `Y`, `N`) are yes/no columns. */
function markYesNoColumns(schema: LinkSchema, tables: ReadonlyMap<string, TableInfo>): void {
  for (const [table, columns] of Object.entries(schema.values ?? {})) {
    for (const [column, list] of Object.entries(columns)) {
      const info = tables.get(table)?.columns.find((c) => c.column === column && !c.path.length);
      if (!info?.text || !list.length) continue;
      const said = (w: string) => list.find((v) => v.trim().toLowerCase() === w) ?? null;
      const pair = YES_NO_PAIRS.find(([y, n]) => list.every((v) => [y, n].includes(v.trim().toLowerCase())) && said(y));
      if (pair) info.yesNo = { yes: said(pair[0]) ?? pair[0], no: said(pair[1]) };
    }
  }
}

function valueInfos(schema: LinkSchema, tables: ReadonlyMap<string, TableInfo>): ValueInfo[] {
  const values: ValueInfo[] = [];
  for (const [table, columns] of Object.entries(schema.values ?? {})) {
    if (!tables.has(table)) continue;
    for (const [column, list] of Object.entries(columns)) {
      const name = list.length > MAX_CATEGORY_VALUES;
      for (const value of list) {
        const words = valueWords(value);
        if (words.length) values.push({ table, column, value, words, name });
      }
    }
  }
  return values;
}

/**
 * What a value and a phrase that may say it share: their words, the last one singular
 * (`cancelled` ↔ `Cancelled`, `books` ↔ `book`), so the index finds a value in one lookup.
 */
export function valueKey(words: readonly string[]): string {
  const last = words.at(-1) ?? '';
  return [...words.slice(0, -1), last.length > 3 ? singular(last) : last].join(' ');
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
  // Every reading of the name: `keyphraseid` is `key phrase id` of the table `keyphrase`.
  const tableWords = t.readings.flatMap((r) => r.words).map(singularOf);
  const head = tableWords.at(-1);
  const columns = t.columns.filter((c) => !c.path.length);
  const words = (c: ColumnInfo) => c.readings.map((r) => r.words.map(singularOf));
  const isGeneric = (w: string[]) => w.length >= 2 && GENERIC_PARTS.has(w[w.length - 1] ?? '');
  return (
    columns.find((c) => c.column.toLowerCase() === 'id') ??
    // `document_id` in `Documents_Mailed`: every word before the id is a word of the table's name.
    columns.find((c) => words(c).some((w) => isGeneric(w) && w.slice(0, -1).every((x) => tableWords.includes(x)))) ??
    columns.find((c) =>
      words(c).some((w) => isGeneric(w) && head !== undefined && w.includes(head) && w.length <= tableWords.length + 2),
    )
  );
}

/** A yes/no column: typed BOOLEAN, or text holding only a yes and a no (`Y`/`N`). */
export function isYesNoColumn(c: ColumnInfo | undefined): boolean {
  return !!c && (c.boolean || !!c.yesNo);
}

/** A column that identifies rows (`id`, `customer_id`, `did` for a domain): said as some table's id. */
export function isKeyColumn(c: ColumnInfo): boolean {
  if (/(^|_)id$/i.test(c.column)) return true;
  return c.readings.some(
    (r) => !r.meaning && r.words.length > 1 && (r.words.at(-1) === 'id' || r.words.at(-1) === 'identifier'),
  );
}
