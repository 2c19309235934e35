import { numberAt } from './numbers';
import { range, slice, take, type LinkRule, type LinkState } from './rule';

/** Words between a column and the number it equals that say nothing else: `id 7`, `the id is 7`, `major of 600`. */
const LINKING = new Set(['is', 'was', 'of', 'number', 'no', '#', '=', ':']);

/**
 * A number said right after a column with no comparison cue is that column's value: `the document
 * with id 7`, `the employee with the id 242518965`, `students who have major 600`. Only a number
 * no other rule took (not a limit, a date, a comparison or a unit), after a term that names a
 * column and no value; the comparisons' `=` then reads it like `equal to`.
 */
export const equalNumbers: LinkRule = {
  name: 'equal-numbers',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      if (s.taken.has(i)) continue;
      const n = numberAt(s.tokens, i);
      if (!n || n.unit) continue;
      const subject = columnBefore(s, i);
      if (subject === null) continue;
      take(s, range(n.at, n.end));
      s.comparisons.push({
        start: n.at,
        end: n.end,
        text: slice(s, n.at, n.end),
        op: '=',
        value: n.value,
        high: null,
        unit: null,
        subject,
        hinted: [],
        aggregate: null,
        countsRows: false,
        owner: null,
        excluded: false,
        orWithPrevious: false,
      });
      i = n.end - 1;
    }
  },
};

/** The term right before `i` (linking words aside) when it names a column and no value. */
function columnBefore(s: LinkState, i: number): number | null {
  let k = i - 1;
  while (k >= 0 && LINKING.has(s.tokens[k]?.norm ?? '')) k--;
  const t = s.termAt.get(k);
  return t && t.end === k + 1 && t.columns.length && !t.values.length ? t.id : null;
}
