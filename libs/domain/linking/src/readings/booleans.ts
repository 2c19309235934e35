import { isTableMention, ref, resolve, use } from './lookup';
import type { TermLink } from '../types';
import type { ReadingRule, ReadingState } from './state';

/**
 * Yes/no columns said as a condition (`reported as ok`, `not ok`, `ok vehicles`, `courses with
 * exams` beside `has_exams`): `= true`, or
 * `= false` when negated. Negated or said of the rows, a yes/no column is a condition even where
 * a list of columns is being said.
 */
export const booleans: ReadingRule = {
  name: 'booleans',
  apply(s) {
    const L = s.links;
    for (const t of L.terms) {
      const describesRows = L.terms.some((n) => n.start === t.end && isTableMention(s, n)) || saidOfRows(s, t);
      if (s.used.has(t.id) || (t.projected && !t.negated && !describesRows)) continue;
      const r = resolve(s, t);
      if (r?.info.boolean && t.columns[0]?.match !== 'partial') {
        s.conditions.push({
          kind: 'compare',
          left: { kind: 'column', ref: ref(s, r) },
          op: '=',
          value: { kind: 'boolean', value: !t.negated },
        });
        use(s, t);
      }
    }
  },
};

/** `courses with exams`, `cars with an automatic gearbox`: the yes/no column said after `with` and the rows' noun. */
function saidOfRows(s: ReadingState, t: TermLink): boolean {
  const tokens = s.links.tokens.map((w) => w.toLowerCase());
  let k = t.start - 1;
  if (['a', 'an', 'the'].includes(tokens[k] ?? '')) k--;
  if (tokens[k] !== 'with') return false;
  return s.links.terms.some((n) => n.end === k && isTableMention(s, n));
}
