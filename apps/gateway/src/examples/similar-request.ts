import MiniSearch from 'minisearch';
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { SimilarExample, StoredExample } from '@nl2p/envelope';

// Which confirmed earlier question a new request is close to: BM25 over the words' dictionary
// forms (lemmas), so "orders shipped per country" meets "shipped orders for each country".
//
// MiniSearch (MIT, no dependencies, maintained, typed) ranks with BM25+ and indexes documents one
// by one; chosen over wink-bm25-text-search, which must be "consolidated" after its last document
// and then takes no more, and refuses to search fewer than three: a tenant's first confirmed
// questions are exactly the case that matters. BM25 alone only ranks, so what counts as close is
// said apart: most of the request's content words are in the earlier question.

/** Words that carry no content of a question: a question sharing only these is not close. */
const FUNCTION_WORDS = new Set(
  'a an the of for per by in on at to from with and or is are was were be been what which who how many much show me give list get find all each every that this these those their its there do does did please i we you it than then as'.split(
    ' ',
  ),
);

/** Share of the request's content words the earlier question must have. */
const MIN_SHARED = 0.75;

let nlp: ReturnType<typeof winkNLP> | null = null;

/** The content words of a text as lemmas (`shipped` → ship, `orders` → order), numbers kept as written. */
export function contentLemmas(text: string): string[] {
  nlp ??= winkNLP(model);
  const e = nlp;
  // wink's typings give `its.lemma` the model's addons as a parameter, which `out` supplies at run time.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- `its` helpers are plain functions
  const lemmaOf = e.its.lemma as unknown as typeof e.its.value;
  const lemmas: string[] = e.readDoc(text.toLowerCase()).tokens().out(lemmaOf);
  return lemmas.filter((w) => /^[\p{L}\p{N}][\p{L}\p{N}_.-]*$/u.test(w) && !FUNCTION_WORDS.has(w));
}

/** The tenant's examples ranked by BM25 against `request`, each with the share of its content words they have. */
function ranked(request: string, examples: readonly StoredExample[]): { example: StoredExample; shared: number }[] {
  const wanted = [...new Set(contentLemmas(request))];
  if (!wanted.length || !examples.length) return [];
  const index = new MiniSearch<StoredExample & { id: number }>({
    fields: ['request'],
    storeFields: [],
    tokenize: (text) => contentLemmas(text),
    processTerm: (term) => term,
  });
  index.addAll(examples.map((e, id) => ({ ...e, id })));
  return index.search(wanted.join(' '), { combineWith: 'OR' }).map((hit) => {
    const example = examples[hit.id as number];
    const theirs = new Set(contentLemmas(example.request));
    return { example, shared: wanted.filter((w) => theirs.has(w)).length / wanted.length };
  });
}

type Ranked = ReturnType<typeof ranked>;

/** The earlier question closest to `request`, or null when none is close enough. */
export function similarExample(request: string, examples: readonly StoredExample[]): SimilarExample | null {
  return similarOf(ranked(request, examples));
}

function similarOf(hits: Ranked): SimilarExample | null {
  // Ranked by BM25; the first that shares enough of the request is the one shown.
  const close = hits.find((r) => r.shared >= MIN_SHARED)?.example;
  return close ? { request: close.request, sql: close.sql, confirmed_at: close.confirmed_at } : null;
}

/**
 * Both from one ranking: the earlier question to show beside `request` (any engine), and the
 * `limit` closest on `target` (see {@link closeExamples}).
 */
export function earlierQuestions(
  request: string,
  examples: readonly StoredExample[],
  target: string,
  limit: number,
): { similar: SimilarExample | null; close: StoredExample[] } {
  const hits = ranked(request, examples);
  const onTarget = hits.filter((h) => h.example.target === target);
  return { similar: similarOf(hits), close: onTarget.slice(0, limit).map((h) => h.example) };
}

/**
 * The `limit` earlier questions closest to `request` by BM25 (sharing at least one content word),
 * closest first: the ones a same question with other values may reuse, and a server model's
 * examples. No share is required here: a question whose values changed shares only its other
 * words, and whether it is the same question is decided word by word where the data is known.
 */
export function closeExamples(request: string, examples: readonly StoredExample[], limit: number): StoredExample[] {
  return ranked(request, examples)
    .slice(0, limit)
    .map((r) => r.example);
}
