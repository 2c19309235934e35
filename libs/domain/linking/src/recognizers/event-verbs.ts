import { ANSWER_CUES } from '../lexicon';
import { partsOfSpeech, posAt } from '../lexical/pos';
import { norm, slice, type LinkRule } from './rule';

/** Auxiliaries between an event's verb and its time (`were published in 2020`, `has been hired since`). */
const AUXILIARIES = new Set(['was', 'were', 'been', 'be', 'is', 'are', 'has', 'have', 'had', 'up']);

/**
 * The verb of the event a time range dates (`papers published in the year 2020`, `salespersons
 * hired between 2022 and 2023`, `customers who signed up in the last 6 months`): when it names no
 * data itself, it only says what happened at that time, and is read with the range (its hint).
 * A verb that names a time column (`shipped` beside `ship_date`) is a term and picks the column.
 */
export const eventVerbs: LinkRule = {
  name: 'event-verbs',
  apply(s) {
    if (!s.timeRanges.length) return;
    const tagged = partsOfSpeech(s.text);
    for (const range of s.timeRanges) {
      let k = range.start - 1;
      while (k >= 0 && AUXILIARIES.has(norm(s, k)) && !s.termAt.has(k)) k--;
      const t = s.tokens[k];
      if (!t || t.kind !== 'word' || s.termAt.has(k) || s.taken.has(k) || ANSWER_CUES.has(t.norm)) continue;
      if (posAt(tagged, t.start) !== 'VERB') continue;
      range.hint.push(t.norm);
      range.start = k;
      range.text = slice(s, k, range.end);
      for (let x = k; x < range.end; x++) s.taken.add(x);
    }
  },
};
