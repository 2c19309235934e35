import { FUNCTION_WORDS } from '../lexicon';
import { superlativeAt } from './superlatives';
import { namesTableFirst } from './term-kinds';
import { numberOf, singular } from '../text';
import { norm, slice, type LinkRule, type LinkState } from './rule';

/** Words after `the X` that say the X is singled out by what follows (`the driver with the best rating`). */
const SINGLING_OUT = ['with', 'that', 'who', 'whose', 'having'];

/**
 * One answer: "Which device has the lowest …", "On which day was … highest", "the driver with
 * the best rating" — a singular noun asked about with a superlative and no number is a limit of 1.
 */
export const oneAnswer: LinkRule = {
  name: 'one-answer',
  apply(s) {
    const hasSuperlative = [...s.aggregateCues.values()].some((c) => c.superlative);
    if (s.limits.length || !hasSuperlative) return;
    const entity = superlativeEntity(s);
    if (entity) {
      s.orders.push({
        ...entity,
        text: slice(s, entity.start, entity.end),
        direction: null,
        limit: 1,
        key: null,
        hinted: [],
      });
      return;
    }
    for (let i = 0; i < s.tokens.length; i++) {
      const w = norm(s, i);
      const singularThe = w === 'the' && singledOut(s, i);
      if (w !== 'which' && w !== 'what' && !singularThe) continue;
      const next = s.tokens[i + 1];
      // `which one has the most` is one answer; `which 3` is a number.
      if (!next || next.kind !== 'word' || (numberOf(next) !== null && next.norm !== 'one')) continue;
      const t = s.termAt.get(i + 1);
      const noun = t ? s.tokens[t.end - 1] : next;
      if (noun && singular(noun.norm) === noun.norm && !FUNCTION_WORDS.has(next.norm)) {
        // After `the`, the noun itself is what the one answer is (the rows a limit ranks).
        const end = singularThe ? i + 1 : i + 2;
        s.orders.push({ start: i, end, text: slice(s, i, end), direction: null, limit: 1, key: null, hinted: [] });
        return;
      }
    }
  },
};

/**
 * `the oldest host`, `the most expensive product`: `the`, a superlative, then one thing the data
 * holds rows of (a table, said in the singular) is that one row, when the superlative says what it
 * ranks by (a time, or a measure such as age or price). A column after the superlative (`the
 * highest temperature`) is a value, max() or an order, not a row: left to the readings.
 */
function superlativeEntity(s: LinkState): { start: number; end: number } | null {
  for (let i = 0; i < s.tokens.length; i++) {
    if (norm(s, i) !== 'the' || !s.aggregateCues.get(i + 1)?.superlative) continue;
    const sup = superlativeAt(s.tokens, i + 1);
    // The superlative must say what it ranks by (`oldest`, `cheapest`): `the largest state` does not.
    if (!sup || (!sup.time && !sup.concept)) continue;
    const t = s.termAt.get(sup.end);
    const noun = t && t.start === sup.end ? s.tokens[t.end - 1] : undefined;
    const table = t?.tables[0];
    if (!t || !noun || !table || t.values.length || singular(noun.norm) !== noun.norm) continue;
    if (t.columns.some((c) => c.score > table.score)) continue;
    return { start: i, end: t.end };
  }
  return null;
}

/**
 * `the X with the best …`: the noun after `the` at `i` is followed by a clause with a superlative.
 * `of` singles out a thing the data holds rows of (`the host of the highest age`), not a column
 * (`the name of the oldest host` is the host's name, read by superlative-entity).
 */
function singledOut(s: LinkState, i: number): boolean {
  const t = s.termAt.get(i + 1);
  const after = norm(s, t?.end ?? i + 2);
  const singles = SINGLING_OUT.includes(after) || (after === 'of' && !!t && namesTableFirst(t));
  return (
    singles && s.tokens.slice(i + 2, i + 9).some((x) => x.norm === 'the' && superlativeAt(s.tokens, x.i + 1) !== null)
  );
}
