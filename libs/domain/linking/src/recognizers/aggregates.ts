import { CUE_WORDS, FILLER_WORDS, FUNCTION_WORDS } from '../lexicon';
import type { AggregateLink, TermLink } from '../types';
import { cuesInOrder, norm, slice, type AggregateCue, type LinkRule, type LinkState } from './rule';
import { measureLike, namesTableFirst } from './term-kinds';

/** Little words an aggregate's target is not looked for past: they open another part of the request. */
const TARGET_STOPS = ['per', 'by', 'for', 'in', 'over', 'across', 'than', 'each', 'every'];

/**
 * Aggregates and what each applies to: the term, arithmetic or defined word after the cue
 * (`average order quantity`, `total revenue (quantity times unit price)`), or the rows
 * (`how many orders`, `the number of …` with nothing after it). Distinct rows when a distinct
 * word is not a distinct count.
 */
export const aggregates: LinkRule = {
  name: 'aggregates',
  apply(s) {
    for (const [i, c] of cuesInOrder(s)) {
      if (!c.fn) continue;
      const found = targetOf(s, c);
      const countsRows = c.fn === 'count' && !found.target ? true : found.countsRows;
      s.aggregateAt.set(i, s.aggregates.length);
      s.aggregates.push({
        start: i,
        end: c.end,
        text: slice(s, i, c.end),
        fn: c.fn,
        distinct: found.distinct,
        target: found.target,
        countsRows,
        superlative: c.superlative,
      });
    }
    if (
      !s.aggregates.some((a) => a.fn === 'count' && a.distinct) &&
      s.distinctAt.size &&
      !s.aggregates.some((a) => a.distinct)
    ) {
      s.distinct = true;
    }
  },
};

interface Target {
  target: AggregateLink['target'];
  distinct: boolean;
  countsRows: boolean;
}

/** What the cue `c` applies to, looking past little words, other cues and distinct words. */
function targetOf(s: LinkState, c: AggregateCue): Target {
  const { tokens } = s;
  let distinct = false;
  for (let k = c.end; k < tokens.length;) {
    const t = s.termAt.get(k);
    const a = s.arithmeticAt.get(k);
    if (a) return { target: { arithmetic: a.id }, distinct, countsRows: false };
    if (t) return termTarget(s, c, t, distinct);
    const w = norm(s, k);
    if (s.distinctAt.has(k)) {
      distinct = true;
      k++;
      continue;
    }
    // A defined word (`revenue`) stands for its arithmetic, wherever it is said.
    if (s.defined.has(w)) {
      const def = s.arithmetic.find((x) => x.defines.includes(w));
      return { target: def ? { arithmetic: def.id } : null, distinct, countsRows: false };
    }
    const other = s.aggregateCues.get(k);
    if (other) {
      k = other.end;
      continue;
    }
    // `the maximum, minimum and average age`: a list of cues shares what follows the last one.
    if ((w === ',' || w === 'and') && s.aggregateCues.has(k + 1)) {
      k++;
      continue;
    }
    if (w === '(' && s.arithmeticAt.get(k + 1)) {
      k++;
      continue;
    }
    if (FUNCTION_WORDS.has(w) && !TARGET_STOPS.includes(w)) {
      k++;
      continue;
    }
    // `total revenue (…)`: an undefined noun right before the bracketed arithmetic.
    if (tokens[k]?.kind === 'word' && norm(s, k + 1) === '(' && s.arithmeticAt.get(k + 2)) {
      k += 2;
      continue;
    }
    if ((FILLER_WORDS.has(w) || CUE_WORDS.has(w)) && tokens[k]?.kind === 'word' && !s.taken.has(k)) {
      k++;
      continue;
    }
    break;
  }
  return { target: null, distinct, countsRows: false };
}

/**
 * The term an aggregate takes. `average order quantity`: a table named before one of its columns
 * qualifies it; the column is what is averaged.
 */
function termTarget(s: LinkState, c: AggregateCue, t: TermLink, distinct: boolean): Target {
  const next = s.termAt.get(t.end);
  const namesTable = namesTableFirst(t);
  const qualified =
    c.fn !== 'count' &&
    namesTable &&
    next &&
    next.start === t.end &&
    !next.values.length &&
    next.columns.some((col) => t.tables.some((tb) => tb.table === col.table)) &&
    measureLike(next, s.index);
  return { target: { term: qualified ? next.id : t.id }, distinct, countsRows: c.fn === 'count' && namesTable };
}
