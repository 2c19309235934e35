import { CONCEPTS, fillerReason } from '../lexicon';
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
      const content = t.kind === 'word' && !s.covered.has(i) && isContentWord(t) && !s.defined.has(t.norm);
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

/** Words that would make the person's request unclear when they name nothing. */
function isContentWord(t: Token): boolean {
  const w = t.norm;
  if (w.length < 2 && !/\d/.test(w)) return false;
  if (CONCEPTS.has(w) || SUPERLATIVES[w] || numberOf(t) !== null) return false;
  if (/n['’]t$/.test(t.text)) return false;
  return fillerReason(w) === null;
}
