import type { TextMatch } from '@nl2p/query-plan';
import { QUOTES, type Token } from '../text';
import { range, take, type LinkRule } from './rule';

/** A text match said with its text, before its column is known (text-matches finds that). */
export interface FoundTextMatch {
  start: number;
  end: number;
  match: TextMatch;
  value: string;
}

/** Nouns a text is said as: `the substring 'Ha'`, `the letter 'J'`. */
const TEXT_NOUNS = new Set(['substring', 'string', 'word', 'words', 'letter', 'letters', 'phrase', 'text', 'character', 'characters', 'part', 'keyword', 'term']); // prettier-ignore
const CONTAINS = new Set(['contains', 'contain', 'containing', 'include', 'includes', 'including', 'has', 'have', 'having', 'with']); // prettier-ignore
const STARTS = new Set(['start', 'starts', 'starting', 'begin', 'begins', 'beginning', 'started', 'began']);
const ENDS = new Set(['end', 'ends', 'ending', 'ended']);

/**
 * Text matches: `names containing the substring 'Ha'`, `starting with the letter J`, `ends with
 * 'son'`, `has 'Ford' in their make name`, `with the word "Bank"`. The cue and the text are owned
 * here, so the text is no value for the terms. `with` or `has` alone is no cue (`with 'Gold'
 * status` is a value): they need a noun for the text or an `in <column>` after it.
 */
export const textMatchCues: LinkRule = {
  name: 'text-match-cues',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (s.taken.has(i)) continue;
      const found = textMatchAt(s.text, s.tokens, i);
      if (!found || range(found.start, found.end).some((k) => s.taken.has(k))) continue;
      s.textMatchCues.push(found);
      take(s, range(found.start, found.end));
      i = found.end - 1;
    }
  },
};

function textMatchAt(text: string, tokens: readonly Token[], i: number): FoundTextMatch | null {
  const w = tokens[i]?.norm ?? '';
  const match: TextMatch | null = STARTS.has(w) ? 'starts_with' : ENDS.has(w) ? 'ends_with' : CONTAINS.has(w) ? 'contains' : null; // prettier-ignore
  if (!match) return null;
  let k = i + 1;
  if (match !== 'contains' && ['with', 'by'].includes(tokens[k]?.norm ?? '')) k++;
  else if (match !== 'contains') return null;
  if (['the', 'a', 'an'].includes(tokens[k]?.norm ?? '')) k++;
  const noun = TEXT_NOUNS.has(tokens[k]?.norm ?? '');
  if (noun) k++;
  const said = textAt(text, tokens, k);
  if (!said) return null;
  const bare = (w === 'with' || w === 'has' || w === 'have' || w === 'having') && !noun;
  if (bare && tokens[said.end]?.norm !== 'in') return null;
  return { start: i, end: said.end, match, value: said.value };
}

/** A quoted text at `k` (`'Ha'`, `"IEEE Transactions"`), or one bare letter (`letter J`). */
function textAt(text: string, tokens: readonly Token[], k: number): { value: string; end: number } | null {
  const open = tokens[k];
  if (!open) return null;
  const close = QUOTES[open.text];
  if (close) {
    for (let j = k + 1; j < tokens.length && j <= k + 12; j++) {
      const t = tokens[j];
      const first = tokens[k + 1];
      if (t?.text === close)
        return j > k + 1 && first ? { value: text.slice(first.start, tokens[j - 1]?.end), end: j + 1 } : null;
    }
    return null;
  }
  const letter = open.kind === 'word' && open.text.length === 1 && tokens[k - 1]?.norm.startsWith('letter');
  return letter ? { value: open.text, end: k + 1 } : null;
}
