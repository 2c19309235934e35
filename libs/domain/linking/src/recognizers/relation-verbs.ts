import { ANSWER_CUES, fillerReason } from '../lexicon';
import { lemmaOf } from '../lexical/lemmas';
import { partsOfSpeech, posAt } from '../lexical/pos';
import type { TermLink } from '../types';
import { SPREAD_VERBS } from './groups';
import { norm, slice, type LinkRule, type LinkState } from './rule';

/** How far a verb may stand from the thing it relates, in function words (`authors who have published`). */
const MAX_GAP = 3;
/** Pronouns that stand for a thing said before (`authors associated with them`). */
const PRONOUNS = new Set(['them', 'it', 'they', 'him', 'her', 'those']);

/**
 * A verb between two things the request names says how they are related (`authors associated
 * with domains`, `restaurants that serve Italian food`, `students who attend courses`): in the
 * data that is the join between their tables, or the row holding the value. The verb is taken as
 * a relation link; the `relations` reading then checks that the data relates the two in one way
 * only, else the verb may be choosing between ways (or be a condition) and the turn does not
 * settle. Only a word the tagger reads as a verb in context, that names nothing and is no cue.
 */
export const relationVerbs: LinkRule = {
  name: 'relation-verbs',
  apply(s) {
    const tagged = partsOfSpeech(s.text);
    for (let i = 0; i < s.tokens.length; i++) {
      const t = s.tokens[i];
      if (!t || t.kind !== 'word' || s.covered.has(i) || s.defined.has(t.norm)) continue;
      if (fillerReason(t.norm) !== null || ANSWER_CUES.has(t.norm) || ANSWER_CUES.has(lemmaOf(t.norm))) continue;
      // `how does the ratio vary across courses`: a figure's spread over groups (groups), not a relation.
      if (SPREAD_VERBS.has(t.norm)) continue;
      if (posAt(tagged, t.start) !== 'VERB') continue;
      const subject = subjectBefore(s, i);
      const object = subject && objectAfter(s, i);
      if (!subject || object === undefined || object?.id === subject.id) continue;
      s.relations.push({
        start: i,
        end: i + 1,
        text: slice(s, i, i + 1),
        subject: subject.id,
        object: object?.id ?? null,
      });
      s.covered.add(i);
    }
    repeatedVerbs(s);
  },
};

/**
 * `which authors have published the most papers, ordered by the number of papers they have
 * published`: a verb said again (its subject a pronoun, or left out) is the relation already read.
 */
function repeatedVerbs(s: LinkState): void {
  const first = [...s.relations];
  s.tokens.forEach((t, i) => {
    if (s.covered.has(i) || t.kind !== 'word') return;
    const same = first.find((r) => r.start !== i && lemmaOf(r.text.toLowerCase()) === lemmaOf(t.norm));
    if (!same) return;
    s.relations.push({ ...same, start: i, end: i + 1, text: slice(s, i, i + 1) });
    s.covered.add(i);
  });
}

const namesData = (t: TermLink | undefined): t is TermLink =>
  !!t && (t.tables.length > 0 || t.columns.length > 0 || t.values.length > 0);

/** The term just before the verb, past at most {@link MAX_GAP} function words. */
function subjectBefore(s: LinkState, i: number): TermLink | null {
  for (let k = i - 1; k >= 0 && k >= i - 1 - MAX_GAP; k--) {
    const t = s.termAt.get(k);
    if (namesData(t)) return t;
    if (fillerReason(norm(s, k)) !== 'function_word') return null;
  }
  return null;
}

/**
 * The term the verb reaches (`with them`, `more than 2 papers`, `in each conference`): past
 * function words and what other cues took, up to a term (found), a pronoun (null: it stands for
 * a thing said before) or anything else (undefined: the verb relates nothing said).
 */
function objectAfter(s: LinkState, i: number): TermLink | null | undefined {
  for (let k = i + 1; k < s.tokens.length && k <= i + 1 + 2 * MAX_GAP; k++) {
    const t = s.termAt.get(k);
    if (namesData(t)) return t;
    const w = norm(s, k);
    if (PRONOUNS.has(w)) return null;
    const cue = s.covered.has(k) && !t;
    if (!cue && fillerReason(w) !== 'function_word') return undefined;
  }
  return undefined;
}
