import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * Dictionary forms of words, from wink-nlp's English model (lemmas and parts of speech, MIT,
 * maintained, no install script, ~1 ms a request): `shipped` → ship, `purchases` → purchase,
 * `heavier` → heavy. Chosen over compromise for its lemmatizer (compromise conjugates verbs and
 * inflects nouns but has no adjective lemmas) and its tagger's accuracy. Words are lemmatised one
 * at a time and remembered: the schema's words have no sentence around them, and a request's
 * words are few.
 */
let nlp: ReturnType<typeof winkNLP> | null = null;
const cache = new Map<string, string>();

export function engine(): ReturnType<typeof winkNLP> {
  nlp ??= winkNLP(model);
  return nlp;
}

/** The dictionary form of one lower-case word (itself when the model has none). */
export function lemmaOf(word: string): string {
  let lemma = cache.get(word);
  if (lemma === undefined) {
    lemma = word;
    if (/^[a-z]{3,}$/.test(word)) {
      const e = engine();
      // wink's typings give `its.lemma` the model's addons as a parameter, which `out` supplies at run time.
      // eslint-disable-next-line @typescript-eslint/unbound-method -- `its` helpers are plain functions
      const lemmaOfToken = e.its.lemma as unknown as typeof e.its.value;
      const out: string[] = e.readDoc(word).tokens().out(lemmaOfToken);
      const only = out.length === 1 ? out[0] : undefined;
      if (only && /^[a-z]+$/.test(only)) lemma = only;
    }
    if (cache.size > 50_000) cache.clear();
    cache.set(word, lemma);
  }
  return lemma;
}
