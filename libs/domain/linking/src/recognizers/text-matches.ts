import type { TermLink } from '../types';
import { fillerReason } from '../lexicon';
import { norm, slice, type LinkRule, type LinkState } from './rule';

/** How far back the column of a text match is looked for (`names of people whose name starts with`). */
const MAX_BACK = 4;

/**
 * What each text match is about: the column said after it (`'Ford' in their make name`), else the
 * one said just before it (`names containing …`, `whose title starts with …`). None found, the
 * reading looks for the one text column it can be.
 */
export const textMatches: LinkRule = {
  name: 'text-matches',
  apply(s) {
    for (const c of s.textMatchCues) {
      const after = termAfterIn(s, c.end);
      const subject = after ?? termBefore(s, c.start);
      const end = after ? after.end : c.end;
      s.textMatches.push({
        start: c.start,
        end,
        text: slice(s, c.start, end),
        match: c.match,
        value: c.value,
        subject: subject?.id ?? null,
      });
    }
  },
};

const columnTerm = (t: TermLink | undefined): t is TermLink => !!t && (t.columns.length > 0 || t.tables.length > 0);

/** `in their make name`: the term after `in` and a determiner. */
function termAfterIn(s: LinkState, k: number): TermLink | null {
  if (norm(s, k) !== 'in') return null;
  let i = k + 1;
  if (['their', 'its', 'the', 'his', 'her'].includes(norm(s, i))) i++;
  const t = s.termAt.get(i);
  return columnTerm(t) && t.start === i ? t : null;
}

/** The term just before the cue, past `whose`, `that`, `which` and other little words. */
function termBefore(s: LinkState, k: number): TermLink | null {
  for (let i = k - 1; i >= 0 && i >= k - MAX_BACK; i--) {
    const t = s.termAt.get(i);
    if (columnTerm(t)) return t;
    if (fillerReason(norm(s, i)) !== 'function_word') return null;
  }
  return null;
}
