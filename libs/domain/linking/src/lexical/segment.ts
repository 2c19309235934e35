import { lemmaOf } from './lemmas';
import { senses, WORDNET_POS } from './wordnet';

/**
 * Short parts a glued name is made of that a dictionary does not list as words of their own
 * (`id`, `num`, `qty`) or lists with other senses only; two-letter words are allowed only from
 * here, since any two letters would otherwise split a name anywhere (`season` → sea son).
 */
const SHORT_PARTS: ReadonlySet<string> = new Set([
  'id',
  'by',
  'of',
  'in',
  'on',
  'at',
  'to',
  'no',
  'ts',
  'num',
  'qty',
  'amt',
  'avg',
  'min',
  'max',
]);

const known = new Map<string, boolean>();

/** Whether `w` is a word: a WordNet lemma of any part of speech (or an inflection of one), or a listed short part. */
export function isWord(w: string): boolean {
  if (SHORT_PARTS.has(w)) return true;
  // WordNet lists initialisms (`crt`, `dts`) beside words: a part with no vowel is not said as a word.
  if (w.length < 3 || !/[aeiouy]/.test(w)) return false;
  let k = known.get(w);
  if (k === undefined) {
    const lemma = lemmaOf(w);
    k = WORDNET_POS.some((pos) => senses(w, pos).length > 0 || (lemma !== w && senses(lemma, pos).length > 0));
    if (known.size > 50_000) known.clear();
    known.set(w, k);
  }
  return k;
}

const segments = new Map<string, string[] | null>();

/**
 * A name glued without separators, split into words: `paperid` → paper id, `authorname` →
 * author name, `numcitedby` → num cited by. The split with the fewest parts wins, then the one
 * whose shortest part is longest. Null when the name is a word itself (`season`, `checkout`), is
 * too short to be glued, or no split into words exists (`sbtx`).
 */
export function segment(name: string): string[] | null {
  let out = segments.get(name);
  if (out === undefined) {
    out = name.length >= 5 && /^[a-z]+$/.test(name) && !isWord(name) ? bestSplit(name) : null;
    if (segments.size > 20_000) segments.clear();
    segments.set(name, out);
  }
  return out;
}

interface Split {
  parts: string[];
  shortest: number;
}

function better(a: Split, b: Split | null): boolean {
  return !b || a.parts.length < b.parts.length || (a.parts.length === b.parts.length && a.shortest > b.shortest);
}

/** Dynamic programming over the prefixes of `name`: best[i] is the best split of its first i letters. */
function bestSplit(name: string): string[] | null {
  const best: (Split | null)[] = [{ parts: [], shortest: Infinity }];
  for (let end = 1; end <= name.length; end++) {
    best[end] = null;
    for (let start = Math.max(0, end - 20); start < end; start++) {
      const before = best[start];
      const part = name.slice(start, end);
      if (!before || !isWord(part)) continue;
      const candidate = { parts: [...before.parts, part], shortest: Math.min(before.shortest, part.length) };
      if (better(candidate, best[end] ?? null)) best[end] = candidate;
    }
  }
  const whole = best[name.length];
  return whole && whole.parts.length > 1 ? whole.parts : null;
}
