import { engine } from './lemmas';

/** A universal part-of-speech tag as wink-nlp's English model assigns it in context (`VERB`, `NOUN`, …). */
export type PosTag = string;

/** One word of a text with its part of speech: character offsets into the text. */
export interface TaggedWord {
  start: number;
  end: number;
  pos: PosTag;
}

const cache = new Map<string, TaggedWord[]>();

/**
 * The parts of speech of a text's words, read in context by wink-nlp's tagger (the same model
 * `lemmaOf` uses): "authors associated with them" tags `associated` a VERB. wink tokenises on its
 * own, so each of its tokens is found in the text from where the previous one ended.
 */
export function partsOfSpeech(text: string): TaggedWord[] {
  const seen = cache.get(text);
  if (seen) return seen;
  const e = engine();
  const doc = e.readDoc(text);
  const words: string[] = doc.tokens().out();
  // `its` helpers are plain functions that wink calls with the token's data.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const tags: string[] = doc.tokens().out(e.its.pos);
  const out: TaggedWord[] = [];
  let at = 0;
  words.forEach((w, k) => {
    const start = text.indexOf(w, at);
    if (start < 0) return;
    at = start + w.length;
    out.push({ start, end: at, pos: tags[k] ?? 'X' });
  });
  if (cache.size > 1000) cache.clear();
  cache.set(text, out);
  return out;
}

/** The tag of the word that starts at `offset` in the text, if the tagger saw one there. */
export function posAt(tagged: readonly TaggedWord[], offset: number): PosTag | null {
  return tagged.find((t) => t.start <= offset && offset < t.end)?.pos ?? null;
}
