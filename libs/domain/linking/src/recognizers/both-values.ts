import { range, slice, take, type LinkRule, type LinkState } from './rule';
import { sharedByAt } from './shared-by';

const CLAUSE_END = new Set(['?', '.', ';', '!']);

/**
 * `both A and B` where A and B are values of one column (`employees who can fly both the Boeing
 * 737-800 and the Airbus A340-300`, `residences that have both a player of gender M and a
 * player of gender F`): rows that have each value, not rows having either (an IN would answer
 * that). The values are found in the rest of the clause, joined by `and`; the `both` is taken.
 */
export const bothValues: LinkRule = {
  name: 'both-values',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      // `both`, or `shared by` / `common to` (`the starting years shared by technicians from team CLE and CWS`).
      const end = s.tokens[i]?.norm === 'both' ? i + 1 : sharedByAt(s, i);
      if (end === null || s.taken.has(i)) continue;
      const said = valuesAfter(s, end - 1);
      if (!said) continue;
      const text = slice(s, i, end);
      const cue = end - i > 1 ? { cue: { start: i, end, text } } : {};
      s.allOf.push({ start: i, end, text, terms: said, ...cue });
      take(s, range(i, end));
    }
  },
};

/** The value terms after `both` in its clause, when two or more share a column and an `and` joins them. */
function valuesAfter(s: LinkState, i: number): number[] | null {
  const found: { id: number; columns: Set<string>; start: number }[] = [];
  for (let k = i + 1; k < s.tokens.length && !CLAUSE_END.has(s.tokens[k]?.text ?? ''); k++) {
    const t = s.termAt.get(k);
    if (!t || t.start !== k || !t.values.length || t.negated) continue;
    found.push({ id: t.id, columns: new Set(t.values.map((v) => `${v.table}.${v.column}`)), start: k });
    k = t.end - 1;
  }
  const [first, second] = found;
  if (!first || !second) return null;
  const shared = [...first.columns].filter((c) => found.every((f) => f.columns.has(c)));
  const joined = range(first.start, second.start).some((k) => s.tokens[k]?.norm === 'and');
  return shared.length && joined ? found.map((f) => f.id) : null;
}
