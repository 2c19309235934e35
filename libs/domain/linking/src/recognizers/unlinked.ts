import { CONCEPTS, fillerReason, REQUEST_VERBS } from '../lexicon';
import { partsOfSpeech, posAt } from '../lexical/pos';
import { SUPERLATIVES } from './superlatives';
import { numberOf, type Token } from '../text';
import { slice, type LinkRule } from './rule';

/**
 * What is left: content words that no link covers (coverage) and that are not filler, adjacent ones joined
 * (`wind speed`). An unknown word in front of a column noun takes the noun with it: "wind speed"
 * is not "speed".
 */
export const unlinked: LinkRule = {
  name: 'unlinked',
  apply(s) {
    let run: number[] = [];
    const flush = () => {
      if (run.length) {
        const start = run[0] ?? 0;
        const end = (run.at(-1) ?? 0) + 1;
        s.unlinked.push({ start, end, text: slice(s, start, end) });
      }
      run = [];
    };
    const tagged = partsOfSpeech(s.text);
    for (let i = 0; i < s.tokens.length; i++) {
      const t = s.tokens[i];
      if (!t) continue;
      const after = s.termAt.get(i);
      if (after && after.start === i && run.length && (run.at(-1) ?? -2) === i - 1 && namesColumnOnly(after)) {
        for (let k = after.start; k < after.end; k++) run.push(k);
        i = after.end - 1;
        flush();
        continue;
      }
      const content =
        t.kind === 'word' &&
        !s.covered.has(i) &&
        isContentWord(t, posAt(tagged, t.start) === 'NOUN' && inNounPlace(s.tokens, i)) &&
        !s.defined.has(t.norm);
      if (content) {
        if (run.length && (run.at(-1) ?? -2) !== i - 1) flush();
        run.push(i);
      } else flush();
    }
    flush();
  },
};

function namesColumnOnly(t: { columns: unknown[]; values: unknown[]; tables: unknown[] }): boolean {
  return t.columns.length > 0 && !t.values.length && !t.tables.length;
}

/** Words around a noun in a list or a phrase (`the dates, places and names of …`): no verb stands there. */
const NOUN_NEIGHBOURS = new Set([',', 'and', 'or', 'the', 'their', 'its', 'of', 'all']);

/** Said where a noun goes: after an article or a list's comma, or before `of` or a list's comma. */
function inNounPlace(tokens: readonly Token[], i: number): boolean {
  const before = tokens[i - 1]?.norm ?? '';
  const after = tokens[i + 1]?.norm ?? '';
  return NOUN_NEIGHBOURS.has(before) && ['of', ',', 'and', 'or', '.', '?', ''].includes(after);
}

/**
 * Words that would make the person's request unclear when they name nothing. A request verb's
 * spelling used as a noun (`the dates, places and names of events`) is content: the tagger and
 * the words around it tell.
 */
function isContentWord(t: Token, saidAsNoun: boolean): boolean {
  const w = t.norm;
  if (w.length < 2 && !/\d/.test(w)) return false;
  if (CONCEPTS.has(w) || SUPERLATIVES[w] || numberOf(t) !== null) return false;
  if (/n['’]t$/.test(t.text)) return false;
  const reason = fillerReason(w);
  return reason === null || (reason === 'request_verb' && saidAsNoun && !REQUEST_VERBS.has(w));
}
