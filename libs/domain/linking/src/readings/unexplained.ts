import type { TermLink } from '../types';
import { doubt, resolve } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * What stayed unexplained: a column said outside any list, condition or aggregate has no role
 * (the model should place it); a join on a stream; a grouping cue whose noun the plan did not
 * take.
 */
export const unexplained: ReadingRule = {
  name: 'unexplained',
  apply(s) {
    const L = s.links;
    for (const t of L.terms) {
      if (!s.used.has(t.id) && hasNoRole(s, t)) doubt(s, `"${t.text}" has no role`);
    }
    if (s.joins.size && s.schema.streaming) doubt(s, 'streams cannot be joined');
    for (const g of L.groups) {
      const quantifier = g.cue === 'which' || g.cue === 'each' || g.cue === 'every';
      if (!s.used.has(g.term) && !(quantifier && !s.groupsNeeded)) doubt(s, `group "${g.text}" unresolved`);
    }
  },
};

/** An unused term that names a column the plan should have placed. */
function hasNoRole(s: ReadingState, t: TermLink): boolean {
  const table = t.tables[0]?.table;
  if (table && (table === s.source || s.scope.includes(table) || t.tables[0].score >= (t.columns[0]?.score ?? 0)))
    return false;
  if (t.columns.length && t.columns.every((c) => c.match === 'concept' || c.match === 'stem' || c.match === 'generic'))
    return false;
  // A verb form naming a column (`installed` ~ installed_at) says how, not what to show.
  if (t.end - t.start === 1 && /(ed|ing)$/i.test(t.text) && t.columns.every((c) => c.match !== 'exact')) return false;
  if (t.columns.some((c) => c.match === 'partial' && c.score < 0.6)) return false;
  // Said again (`each name once`, `belongs to a site`): the first mention has the role.
  const again = resolve(s, t);
  if (again && s.links.terms.some((u) => s.used.has(u.id) && resolve(s, u)?.info.label === again.info.label))
    return false;
  return t.columns.length > 0 && !t.projected;
}
