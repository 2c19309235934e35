import levenshtein from 'damerau-levenshtein';
import { abbreviationScore } from './lexical/abbreviation';
import { lemmaOf } from './lexical/lemmas';
import { LOOSE_RELATIONS, RELATION_SCORE, relationBetween } from './lexical/related';
import { isWord } from './lexical/segment';
import {
  ABBREVIATIONS,
  CONCEPTS,
  CUE_WORDS,
  FILLER_WORDS,
  FUNCTION_WORDS,
  GENERIC_PARTS,
  REQUEST_VERBS,
  TEMPORAL_PARTS,
  TIME_WORDS,
} from './lexicon';
import { SUPERLATIVES } from './recognizers/superlatives';
import { looksTemporal, type ColumnInfo, type Reading, type SchemaIndex } from './schema-index';
import { numberOf, quotedSpans, singular, stem, type Token } from './text';
import type { ColumnCandidate, MatchKind, Meaning, TableCandidate, TermLink, ValueCandidate } from './types';

/** How a request word met an identifier word, from surest to weakest. */
export type WordVia = 'same' | 'plural' | 'abbreviation' | 'time' | 'stem' | 'related' | 'typo';

export interface WordMatch {
  score: number;
  via: WordVia;
  /** Met by a weak relation of meaning (a broader or narrower word). */
  loose?: true;
}

/**
 * Words with a role of their own in a request (function words, request verbs, fillers, cues, and
 * the concept words that evoke a measure with a direction): they meet a name by spelling only.
 */
const SPELLING_ONLY = new Set([...FUNCTION_WORDS, ...REQUEST_VERBS, ...FILLER_WORDS, ...CUE_WORDS, ...CONCEPTS.keys()]);
const wordMatches = new Map<string, WordMatch | null>();

/**
 * How well one request word says one identifier word: the same word (1); the same dictionary
 * form (`shipped` ship, `purchases` purchase: 0.95); an abbreviation, listed or by its shape
 * (`cust` customer: 0.9 listed, 0.85–0.6 by shape); a time word for a time part (0.85); related
 * in meaning by WordNet (`pupil` student 0.8, `heavy` weight 0.7, `station` plant 0.5); a crude
 * common stem (0.6).
 */
export function wordMatch(req: string, target: string): WordMatch | null {
  if (req === target) return { score: 1, via: 'same' };
  const key = `${req}\u0000${target}`;
  let m = wordMatches.get(key);
  if (m === undefined) {
    m = computeWordMatch(req, target);
    if (wordMatches.size > 200_000) wordMatches.clear();
    wordMatches.set(key, m);
  }
  return m;
}

function computeWordMatch(req: string, target: string): WordMatch | null {
  if (singular(req) === singular(target)) return { score: 0.95, via: 'plural' };
  if ((ABBREVIATIONS[req] ?? []).some((e) => e.length === 1 && e[0] === target))
    return { score: 0.9, via: 'abbreviation' };
  const reqLemma = lemmaOf(req);
  const targetLemma = lemmaOf(target);
  if (reqLemma === targetLemma || reqLemma === singular(target)) return { score: 0.95, via: 'plural' };
  if (TEMPORAL_PARTS.has(target) && TIME_WORDS.has(req)) return { score: 0.85, via: 'time' };
  const spellingOnly = SPELLING_ONLY.has(req) || /\d/.test(req + target) || req.length < 3 || target.length < 2;
  const short = spellingOnly ? 0 : Math.max(abbreviationScore(target, req), abbreviationScore(req, target));
  let best: WordMatch | null = short > 0 ? { score: short, via: 'abbreviation' } : null;
  if (req.length >= 4 && target.length >= 4 && stem(req) === stem(target) && (!best || best.score < 0.6)) {
    best = { score: 0.6, via: 'stem' };
  }
  if (!spellingOnly && target.length >= 3 && !GENERIC_PARTS.has(target)) {
    const r = relationBetween([...new Set([req, reqLemma])], [...new Set([target, targetLemma, singular(target)])]);
    if (r && (!best || RELATION_SCORE[r] > best.score)) {
      best = { score: RELATION_SCORE[r], via: 'related', ...(LOOSE_RELATIONS.has(r) ? { loose: true as const } : {}) };
    }
  }
  // A slip in a plural (`medcines` medicine, `browswers` browser) is one in its singular.
  const slip = isTypoOf(req, target) || isTypoOf(singular(req), singular(target));
  if (!best && !spellingOnly && slip) best = { score: TYPO_SCORE, via: 'typo' };
  return best;
}

const TYPO_SCORE = 0.8;

/**
 * One slip of the keys (a letter left out, added, changed, or two swapped: `prcie` price,
 * `temprature` temperature) in a word of five letters or more that is no word itself: `prize`
 * is a word and never a typo of `price`.
 */
export function isTypoOf(req: string, target: string): boolean {
  if (req.length < 5 || target.length < 5 || Math.abs(req.length - target.length) > 1) return false;
  if (!/^[a-z]+$/.test(req) || !/^[a-z]+$/.test(target) || isWord(req)) return false;
  return levenshtein(req, target).steps === 1;
}

/** The score of `wordMatch`, 0 when the words do not meet. */
export function wordScore(req: string, target: string): number {
  return wordMatch(req, target)?.score ?? 0;
}

function kindOf(weakest: WordMatch, factor: number, full: boolean): MatchKind {
  if (!full) return 'partial';
  if (weakest.via === 'related' || weakest.via === 'typo') return 'related';
  const min = weakest.score;
  if (min >= 1 && factor >= 1) return 'exact';
  if (min >= 0.95 && factor >= 1) return 'plural';
  if (min >= 0.85 || weakest.via === 'abbreviation') return 'abbreviation';
  return 'stem';
}

/**
 * How well a run of request words says an identifier: the whole name (`unit price`) scores its
 * word scores; part of it scores by which part (`price` of `unit_price` is its head noun,
 * `device` is all `device_id` says beyond `id`, `ids` alone is weak).
 */
export function matchReading(words: readonly string[], r: Reading): ReadingMatch | null {
  const n = words.length;
  const m = r.words.length;
  if (n > m) return null;
  let best: ReadingMatch | null = null;
  for (let at = 0; at + n <= m; at++) {
    let weakest: WordMatch = { score: 1, via: 'same' };
    for (let k = 0; k < n && weakest.score > 0; k++) {
      const m = wordMatch(words[k] ?? '', r.words[at + k] ?? '');
      if (!m) weakest = { score: 0, via: 'same' };
      else if (m.score < weakest.score) weakest = m;
    }
    const min = weakest.score;
    if (min <= 0) continue;
    let score: number;
    let kind: MatchKind;
    if (n === m) {
      score = min * r.factor;
      kind = kindOf(weakest, r.factor, true);
    } else {
      const covered = r.words.slice(at, at + n);
      const specific = r.words.filter((w) => !GENERIC_PARTS.has(w));
      const coveredSpecific = covered.filter((w) => !GENERIC_PARTS.has(w));
      const head = specific.at(-1);
      if (coveredSpecific.length === 0) score = 0.35;
      else if (coveredSpecific.length === specific.length) score = 0.85;
      else if (head !== undefined && coveredSpecific.includes(head)) score = 0.7;
      else score = 0.5;
      score *= min * r.factor;
      kind = coveredSpecific.length === 0 ? 'generic' : 'partial';
    }
    // A typo is shown as a reading, as a match by meaning is (`"prcie" is read as price`).
    const byMeaning: Meaning | null =
      weakest.via === 'related' || weakest.via === 'typo'
        ? weakest.loose
          ? 'loosely'
          : 'closely'
        : r.meaning
          ? 'closely'
          : null;
    if (!best || score > best.score) best = { score, kind, ...(byMeaning ? { byMeaning } : {}) };
  }
  return best;
}

/** How a run of words says one reading of a name; `byMeaning` when a word met it through meaning, not spelling. */
export interface ReadingMatch {
  score: number;
  kind: MatchKind;
  byMeaning?: Meaning;
}

function bestReadingOf(words: readonly string[], readings: readonly Reading[]) {
  let best: ReadingMatch | null = null;
  for (const r of readings) {
    const m = matchReading(words, r);
    if (m && (!best || m.score > best.score)) best = m;
  }
  return best;
}

const MAX_SPAN = 5;
const MIN_SINGLE = 0.3;
const MIN_MULTI = 0.5;

export function candidate(c: ColumnInfo, score: number, match: MatchKind, byMeaning?: Meaning): ColumnCandidate {
  return {
    ...(byMeaning ? { byMeaning } : {}),
    table: c.table,
    column: c.column,
    ...(c.path.length ? { path: c.path } : {}),
    label: c.label,
    score,
    match,
  };
}

/** Columns a concept word evokes (`hottest` → temperature columns). */
export function conceptColumns(index: SchemaIndex, word: string, score = 0.55): ColumnCandidate[] {
  const concept = CONCEPTS.get(word);
  if (!concept) return [];
  const out: ColumnCandidate[] = [];
  for (const t of index.tables) {
    for (const c of t.columns) {
      const hit = c.readings.some((r) => r.words.some((w) => concept.columns.some((cw) => wordScore(w, cw) >= 0.95)));
      if (hit) out.push(candidate(c, score, 'concept'));
    }
  }
  return out;
}

function timeColumns(index: SchemaIndex): ColumnCandidate[] {
  return index.tables.flatMap((t) => t.columns.filter(looksTemporal).map((c) => candidate(c, 0.5, 'generic')));
}

interface SpanCandidates {
  start: number;
  end: number;
  tables: TableCandidate[];
  columns: ColumnCandidate[];
  values: ValueCandidate[];
  best: number;
}

function valueScore(words: readonly string[], value: readonly string[]): number {
  if (words.length !== value.length) return 0;
  for (let k = 0; k < words.length - 1; k++) if (words[k] !== value[k]) return 0;
  const a = words.at(-1) ?? '';
  const b = value.at(-1) ?? '';
  if (a === b) return 1;
  // `cancelled` ↔ `Cancelled`, `books` ↔ `book`, not `dev`/`devs`-style abbreviations.
  return a.length > 3 && singular(a) === singular(b) ? 0.9 : 0;
}

/** Words that start a comparison: a verb right before one is compared (`opened between 2000 and 2005`: open_year). */
const COMPARED_NEXT = new Set([
  'between',
  'after',
  'before',
  'since',
  'above',
  'below',
  'over',
  'under',
  'more',
  'less',
  'fewer',
]);

function candidatesFor(
  tokens: readonly Token[],
  start: number,
  end: number,
  index: SchemaIndex,
): SpanCandidates | null {
  const span = tokens.slice(start, end);
  const words = span.map((t) => t.norm);
  const single = span.length === 1;
  const first = words[0] ?? '';
  const last = words.at(-1) ?? '';
  // `on scholarship`, `in stock`: a name may start with a function word (`OnScholarship`,
  // `in_stock`); such a phrase names only what is spelled so, word for word.
  const spelledOnly = !single && FUNCTION_WORDS.has(first) && !FUNCTION_WORDS.has(last);
  if ((FUNCTION_WORDS.has(first) && !spelledOnly) || FUNCTION_WORDS.has(last)) return null;
  // A lone number is a quantity, not a name; a number inside a value (`dev 03`) is fine.
  if (single && span[0]?.kind === 'number') return null;
  // `5 times`, `two times`: how often, not a moment or a column.
  if (single && (first === 'times' || first === 'time') && numberOf(tokens[start - 1]) !== null) return null;

  const values: ValueCandidate[] = [];
  const saidAsName = span.some((t) => t.kind === 'number' || (t.i > 0 && /^\p{Lu}/u.test(t.text)));
  for (const v of spelledOnly ? [] : index.valuesSaidAs(words)) {
    if (v.name && !saidAsName) continue;
    const s = valueScore(words, v.words);
    if (s > 0) values.push({ table: v.table, column: v.column, value: v.value, score: s });
  }
  const tables: TableCandidate[] = [];
  const columns: ColumnCandidate[] = [];
  // A request verb names a table or column only when it is that name outright (`returns`, `logs`);
  // ranked by a superlative (`highest-rated`, `best selling`, `most visited`) or compared (`opened
  // after 2000`) it is an attribute and meets one by its dictionary form too (`rating`, `visits`,
  // `open_year`).
  const verb = single && REQUEST_VERBS.has(first);
  const attribute =
    verb && (!!SUPERLATIVES[tokens[start - 1]?.norm ?? ''] || COMPARED_NEXT.has(tokens[end]?.norm ?? ''));
  const accept = (m: ReadingMatch | null) =>
    !!m &&
    m.score >= (single ? MIN_SINGLE : MIN_MULTI) &&
    (!spelledOnly || m.kind === 'exact') &&
    (!verb || m.kind === 'exact' || m.kind === 'plural' || (attribute && (m.kind === 'stem' || m.kind === 'partial')));
  // `check-ins`, `e-mail`: a phrase glued by hyphens is also said as one word (`checkin`, `email`).
  const glued = span.length > 1 && span.slice(1).every((t) => t.joined) ? [words.join('')] : null;
  const bestReading = (readings: readonly Reading[]) => {
    const own = bestReadingOf(words, readings);
    const one = glued ? bestReadingOf(glued, readings) : null;
    return one && (!own || one.score > own.score) ? one : own;
  };
  for (const t of index.tables) {
    const m = bestReading(t.readings);
    if (m && accept(m))
      tables.push({ table: t.name, score: m.score, match: m.kind, ...(m.byMeaning ? { byMeaning: m.byMeaning } : {}) });
    for (const c of t.columns) {
      const cm = bestReading(c.readings);
      if (cm && accept(cm)) columns.push(candidate(c, cm.score, cm.kind, cm.byMeaning));
    }
  }
  if (single && !verb) {
    // A word that evokes a measure (`units` → quantity) beats reading it as a modifier (`unit_price`).
    for (const c of conceptColumns(index, first)) {
      if (!columns.some((x) => x.table === c.table && x.label === c.label && x.score >= c.score)) columns.push(c);
    }
    if (columns.length === 0 && TIME_WORDS.has(first)) columns.push(...timeColumns(index));
  }
  if (!values.length && !tables.length && !columns.length) return null;
  const byScore = <T extends { score: number }>(a: T, b: T) => b.score - a.score;
  tables.sort(byScore);
  columns.sort(byScore);
  values.sort(byScore);
  const best = Math.max(tables[0]?.score ?? 0, columns[0]?.score ?? 0, values[0]?.score ?? 0);
  return { start, end, tables, columns, values, best };
}

/**
 * `"On Road"`, `"Nanjing ( Jiangsu )"`: a quoted text that is a value said in full, whatever its
 * little words and brackets (which end a phrase anywhere else).
 */
function quotedValues(tokens: readonly Token[], index: SchemaIndex, taken: ReadonlySet<number>): SpanCandidates[] {
  const found: SpanCandidates[] = [];
  for (const [start, end] of quotedSpans(tokens)) {
    const inner = tokens.slice(start, end);
    if (inner.some((t) => taken.has(t.i))) continue;
    const words = inner.filter((t) => t.kind !== 'punct').map((t) => t.norm);
    const values = index
      .valuesSaidAs(words)
      .filter((v) => valueScore(words, v.words) === 1)
      .map((v) => ({ table: v.table, column: v.column, value: v.value, score: 1 }));
    if (values.length) found.push({ start, end, tables: [], columns: [], values, best: 1 });
  }
  return found;
}

/**
 * Every phrase that names a table, column or value, longest first: `sensor readings` beats
 * `sensor` (a value `sensors`) and `readings`, `unit price` beats `price`. Tokens in `taken`
 * already belong to another link (a date, a number).
 */
export function findTerms(tokens: readonly Token[], index: SchemaIndex, taken: ReadonlySet<number>): TermLink[] {
  const found: SpanCandidates[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j <= Math.min(tokens.length, i + MAX_SPAN); j++) {
      const t = tokens[j - 1];
      if (!t || t.kind === 'punct' || taken.has(j - 1)) break;
      const c = candidatesFor(tokens, i, j, index);
      if (c && c.best >= (j - i === 1 ? MIN_SINGLE : MIN_MULTI)) found.push(c);
    }
  }
  found.push(...quotedValues(tokens, index, taken));
  // A whole value or name said in full beats any reading of its parts.
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || b.best - a.best || a.start - b.start);
  const used = new Set<number>();
  const chosen: SpanCandidates[] = [];
  for (const c of found) {
    let free = true;
    for (let k = c.start; k < c.end; k++) if (used.has(k)) free = false;
    if (!free) continue;
    for (let k = c.start; k < c.end; k++) used.add(k);
    chosen.push(c);
  }
  chosen.sort((a, b) => a.start - b.start);
  return chosen.map((c, id) => ({
    id,
    start: c.start,
    end: c.end,
    text: tokens
      .slice(c.start, c.end)
      .map((t) => t.text)
      .join(' '),
    tables: c.tables,
    columns: c.columns,
    values: c.values,
    negated: false,
    projected: false,
  }));
}
