import { senses, synset, WORDNET_POS, wordnetAvailable, type Synset, type WordNetPos } from './wordnet';
import { wordTable } from '../word-table';

/**
 * How two words are related in meaning, by WordNet's relations, weighed: a shared sense is
 * nearly the same word (pupil ~ student, nation ~ country), an attribute or a derivation says
 * the same thing in another part of speech (heavy ~ weight, automatic ~ automate), a broader or
 * narrower sense is a weak link (station ~ plant) that a closer match beats and that a turn
 * states as an assumption.
 */
export type Relation = 'synonym' | 'attribute' | 'derived' | 'similar' | 'narrower' | 'broader';

export const RELATION_SCORE: Record<Relation, number> = {
  synonym: 0.8,
  attribute: 0.7,
  derived: 0.7,
  similar: 0.6,
  narrower: 0.55,
  broader: 0.5,
};

/** The weak relations: a name met only through one of these is met loosely. */
export const LOOSE_RELATIONS: ReadonlySet<Relation> = new Set(['broader', 'narrower']);

/** Only a word's commonest senses count: rare senses relate everything to everything. */
const SENSES_PER_POS: Record<WordNetPos, number> = { n: 3, v: 2, a: 3, r: 1 };

const RELATION_OF: Record<string, Relation> = wordTable({
  '=': 'attribute',
  '+': 'derived',
  '\\': 'derived',
  '&': 'similar',
  '^': 'similar',
  '@': 'broader',
  '@i': 'broader',
  '~': 'narrower',
  '~i': 'narrower',
});

const neighbourhoods = new Map<string, Map<string, Relation>>();

function note(into: Map<string, Relation>, word: string, r: Relation): void {
  const had = into.get(word);
  if (!had || RELATION_SCORE[r] > RELATION_SCORE[had]) into.set(word, r);
}

/**
 * The words of synset `s` (its part of speech `pos`) and those it points to, restricted to
 * `parts`: a noun's relations do not go through a verb's synonyms, but may reach a verb's nouns.
 */
function collect(
  into: Map<string, Relation>,
  s: Synset,
  self: string,
  pos: WordNetPos,
  parts: readonly WordNetPos[],
): void {
  if (parts.includes(pos)) for (const w of s.words) if (w !== self) note(into, w, 'synonym');
  for (const p of s.pointers) {
    const r = RELATION_OF[p.symbol];
    if (!r || !parts.includes(p.pos)) continue;
    // A lexical pointer is the looked-up word's own (`name` the verb derives `name` the noun; its
    // synonym `cite` does not); it reaches the whole target sense (`automatic` → automatize, automate).
    if (p.source && s.words[p.source - 1] !== self) continue;
    for (const w of synset(p.pos, p.offset).words) if (w !== self) note(into, w, r);
  }
}

/** Every word one relation away from any of `forms` (a word and its lemma), with the closest relation. */
export function neighbourhood(
  forms: readonly string[],
  parts: readonly WordNetPos[] = WORDNET_POS,
): Map<string, Relation> {
  const key = `${forms.join('|')}/${parts.join('')}`;
  let out = neighbourhoods.get(key);
  if (!out) {
    out = new Map();
    if (wordnetAvailable()) {
      for (const form of forms) {
        for (const pos of WORDNET_POS) {
          for (const offset of senses(form, pos).slice(0, SENSES_PER_POS[pos]))
            collect(out, synset(pos, offset), form, pos, parts);
        }
      }
    }
    if (neighbourhoods.size > 20_000) neighbourhoods.clear();
    neighbourhoods.set(key, out);
  }
  return out;
}

const FLIP: Partial<Record<Relation, Relation>> = { broader: 'narrower', narrower: 'broader' };

/** The closest relation between a request word and a schema word, each given with its dictionary forms. */
export function relationBetween(a: readonly string[], b: readonly string[]): Relation | null {
  let best: Relation | null = null;
  const consider = (r: Relation | undefined) => {
    if (r && (!best || RELATION_SCORE[r] > RELATION_SCORE[best])) best = r;
  };
  // A plural (`names`) is a noun: its verb senses and forms (name ~ cite) say nothing of it.
  const parts: readonly WordNetPos[] = a.some((w) => isPluralOf(w, a)) ? ['n'] : WORDNET_POS;
  const na = neighbourhood(a, parts);
  for (const w of b) consider(na.get(w));
  const nb = neighbourhood(b, parts);
  for (const w of a) {
    const r = nb.get(w);
    consider(r ? (FLIP[r] ?? r) : undefined);
  }
  return best;
}

/** `names` beside its lemma `name`, `cities` beside `city`: the word is a plural noun. */
function isPluralOf(word: string, forms: readonly string[]): boolean {
  return (
    word.length > 3 &&
    word.endsWith('s') &&
    forms.some(
      (f) => f !== word && (f === word.slice(0, -1) || f === word.slice(0, -2) || f === `${word.slice(0, -3)}y`),
    )
  );
}
