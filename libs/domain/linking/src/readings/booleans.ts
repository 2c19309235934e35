import { isTableMention, ref, resolve, use } from './lookup';
import type { Literal } from '@nl2p/query-plan';
import type { ColumnInfo } from '../schema-index';
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
      const value = r && t.columns[0]?.match !== 'partial' ? yesOrNo(r.info, !t.negated) : null;
      if (r && value) {
        s.conditions.push({ kind: 'compare', left: { kind: 'column', ref: ref(s, r) }, op: '=', value });
        use(s, t);
      }
    }
  },
};

/** The value a yes/no column has when `yes` holds: `true`, or its own spelling (`'Y'`) when kept as text. */
function yesOrNo(info: ColumnInfo, yes: boolean): Literal | null {
  if (info.boolean) return { kind: 'boolean', value: yes };
  const said = info.yesNo && (yes ? info.yesNo.yes : info.yesNo.no);
  return said ? { kind: 'string', value: said } : null;
}

/** `courses with exams`, `cars with an automatic gearbox`: the yes/no column said after `with` and the rows' noun. */
function saidOfRows(s: ReadingState, t: TermLink): boolean {
  const tokens = s.links.tokens.map((w) => w.toLowerCase());
  let k = t.start - 1;
  if (['a', 'an', 'the'].includes(tokens[k] ?? '')) k--;
  if (tokens[k] !== 'with') return false;
  return s.links.terms.some((n) => n.end === k && isTableMention(s, n));
}
