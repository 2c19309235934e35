import { isKeyColumn } from '../schema-index';
import type { TermLink } from '../types';
import { isTableMention, resolve, use } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * `Show all sport names and the number of students`: a column listed beside an aggregate, with
 * no `per` said, is what the aggregate is computed per (GROUP BY sport name), said as a reading.
 * Only a text column that is no key and no operand of the aggregate; without this it would be
 * dropped, the count over all rows shown as if it answered.
 */
export const listedGroups: ReadingRule = {
  name: 'listed-groups',
  apply(s) {
    if (isGrouped(s) || !s.aggregates.length || s.extreme || s.links.ratios.length) return;
    // A superlative (`highest rating`, `most gas stations`) ranks rows; its readings decide, not a listing.
    if (s.aggregates.some((a) => a.link?.superlative) || s.links.orders.some((o) => o.superlative)) return;
    // `the number of distinct industries`: distinct values counted, not a figure per value.
    if (s.aggregates.some((a) => a.agg.distinct || a.link?.distinct)) return;
    const listed = s.links.terms.flatMap((t) => {
      const r = listedColumn(s, t);
      return r ? [{ t, r }] : [];
    });
    for (const { t, r } of listed) {
      use(s, t);
      if (!s.groupKeys.some((k) => k.table === r.table && k.info.label === r.info.label)) s.groupKeys.push(r);
    }
    if (listed.length)
      s.readings.push(
        `the ${s.aggregates.length > 1 ? 'figures are' : 'figure is'} computed per ${listed.map((x) => `"${x.t.text}"`).join(' and ')}`,
      );
  },
};

/** A term listed to be shown that names a text column (no key, no value, not the aggregate's operand). */
function listedColumn(s: ReadingState, t: TermLink): Resolved | null {
  if (!t.projected || s.used.has(t.id) || t.values.length || t.negated || isTableMention(s, t)) return null;
  // Said with `per`/`each` and left ungrouped by grouping (a row's own key): not this rule's to group.
  if (s.links.groups.some((g) => g.term === t.id || g.qualifiers.includes(t.id))) return null;
  if (s.aggregates.some((a) => a.link?.target && 'term' in a.link.target && a.link.target.term === t.id)) return null;
  // `phone number of`: a word an aggregate cue was read in, or right before, is no listing beside it.
  if (s.aggregates.some((a) => a.link && a.link.start <= t.end && t.start < a.link.end)) return null;
  const r = resolve(s, t);
  if (!r || !r.info.text || isKeyColumn(r.info) || !s.scope.includes(r.table)) return null;
  // `the number of distinct industries`: the column counted is the aggregate's, not a group.
  const counted = s.aggregates.some(
    (a) =>
      a.agg.arg?.kind === 'column' &&
      a.agg.arg.ref.column === r.info.column &&
      (a.agg.arg.ref.table ?? s.source) === r.table,
  );
  return counted ? null : r;
}
